"use client";
// The experiment report (docs/api/replay.md, "Experiment report"): totals, the change against the originals,
// each grader's pass rate and each approved assertion's results with evidence links to the spans.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { FactGrid } from "@/components/ui/fact-grid.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { EvidenceLinks } from "../../review/evidence-links.tsx";

const pct = (x: number | null) => (x === null ? "—" : `${Math.round(x * 100)}%`);

export function ExperimentReport({ id }: { id: string }) {
  const trpc = useTRPC();
  const report = useQuery(trpc.replays.report.queryOptions({ id }, { refetchInterval: 5000 }));
  if (!report.data) return null;
  const { totals: t, delta: d, graders, assertions, group, experiment: e } = report.data;
  const facts: [string, React.ReactNode][] = [
    ["Replay verdicts", `${t.passing} pass · ${t.failing} fail · ${t.unlabeled} unlabeled`],
    ["Against originals", `${d.fixed} fixed · ${d.regressed} regressed · ${d["still-passing"]} still passing · ${d["still-failing"]} still failing · ${d.unpaired} unpaired`],
    ["Git", e.gitBranch || e.commitSha ? <span className="font-mono">{[e.gitBranch, e.commitSha?.slice(0, 12)].filter(Boolean).join(" @ ")}</span> : "—"],
    ["Group", group ? <Link href={`/replays/groups/${group.id}`} className="text-accent-700 dark:text-accent-300 hover:underline">{group.name || group.id.slice(0, 8)}</Link> : "—"],
  ];
  return (
    <div className="mb-6 space-y-4">
      <FactGrid facts={facts} />
      <div className="grid items-start gap-4 lg:grid-cols-2">
        <Card aria-label="Graders">
          <CardHeader title="Graders" description="Pass rate of each grader over the replay traces." />
          {graders.length === 0 ? <p className="px-4 py-3 text-sm text-zinc-500">No grader has graded this replay.</p> : (
            <table className="w-full text-sm">
              <thead><tr className="text-left text-xs text-zinc-500"><th className="px-4 py-2">Grader</th><th className="px-4 py-2">Pass rate</th><th className="px-4 py-2">Pass / fail / errored</th></tr></thead>
              <tbody>{graders.map((g) => (
                <tr key={g.graderId} className="border-t border-zinc-100"><td className="px-4 py-2">{g.graderName ?? g.graderId}</td><td className="px-4 py-2">{pct(g.passRate)}</td><td className="px-4 py-2">{g.passed} / {g.failed} / {g.errored}</td></tr>
              ))}</tbody>
            </table>
          )}
        </Card>
        <Card aria-label="Assertion results">
          <CardHeader title="Assertion results" description="Each approved assertion on each replay trace, with the evidence of its verdict." />
          {assertions.length === 0 ? <p className="px-4 py-3 text-sm text-zinc-500">No assertion has been scored on this replay.</p> : (
            <ul className="divide-y divide-zinc-100">
              {assertions.map((a) => (
                <li key={a.assertionId} className="space-y-2 px-4 py-3 text-sm" aria-label={`Assertion: ${a.assertion}`}>
                  <p className="font-medium text-zinc-900">{a.assertion}</p>
                  <p className="text-xs text-zinc-600">{a.passed} passed · {a.failed} failed · {a.errored} errored · {a.unlabeled} unlabeled</p>
                  <ul className="space-y-2">
                    {a.results.map((r) => (
                      <li key={`${r.traceId}-${a.assertionId}`} className="text-xs">
                        <span className="mr-2">
                          {r.labelStatus === "labeled" ? <Badge tone={r.label ? "pass" : "fail"}>{r.label ? "PASS" : "FAIL"}</Badge> : <Badge tone="warn">{r.labelStatus}</Badge>}
                        </span>
                        <Link href={`/traces/${r.traceId}`} className="text-accent-700 dark:text-accent-300 hover:underline">replay {r.traceId.slice(0, 8)}</Link>
                        {r.labelSource ? <span className="text-zinc-500"> · {r.labelSource}</span> : null}
                        {r.annotation ? <span className="text-zinc-600"> — {r.annotation}</span> : null}
                        <EvidenceLinks traceId={r.traceId} evidence={r.evidence} />
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </div>
  );
}
