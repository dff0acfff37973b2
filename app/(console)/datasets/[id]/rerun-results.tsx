// A dataset re-run's per-trace results: each trace with the label every grader of the run now holds on
// it (the reason on hover), shown for the active run or, after it finished, the newest one.
import { Link } from "@/components/ui/link.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { InputPreview } from "../../_components/input-preview.tsx";

type Result = RouterOutputs["datasets"]["rerun"]["results"][number];

export function RerunResults({ results }: { results: Result[] }) {
  if (results.length === 0) return null;
  return (
    <ul aria-label="Re-run results" className="max-h-80 divide-y divide-zinc-100 overflow-y-auto rounded-md border border-zinc-100 text-sm">
      {results.map((t) => (
        <li key={t.traceId} className="flex flex-wrap items-center justify-between gap-2 px-3 py-1.5">
          <span className="min-w-0">
            <Link href={`/traces/${t.traceId}`} className="block truncate text-accent-700 hover:underline dark:text-accent-300">{t.traceName ?? t.traceId.slice(0, 8)}</Link>
            <InputPreview input={t.preview?.input} />
          </span>
          <span className="flex flex-wrap gap-1">
            {t.graders.map((g) => (
              <Badge key={g.graderId} title={g.reason ?? undefined} tone={g.graded === null ? "neutral" : !g.graded ? "warn" : g.label === null ? "warn" : g.label ? "pass" : "fail"}>
                {g.graderName ?? g.graderId.slice(0, 8)}: {g.graded === null ? "waiting" : !g.graded ? "not graded" : g.label === null ? (g.score !== null || g.category !== null ? "scored" : "errored") : g.label ? "pass" : "fail"}{g.score !== null ? ` · score ${g.score}` : g.category !== null ? ` · ${g.category}` : ""}
              </Badge>
            ))}
          </span>
        </li>
      ))}
    </ul>
  );
}
