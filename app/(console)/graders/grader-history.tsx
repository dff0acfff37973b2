"use client";
// A grader's history: every version with who wrote it (a person in the console, a REST key, an agent's tool),
// when, and what changed from the version before, shown as a diff; any older version can be restored, which
// writes a new version equal to it (so a revert is undone the same way).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { formatDateTime, formatRelative } from "@/components/ui/format.ts";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import type { Grader } from "./graders-list.tsx";
import { useCan } from "../_components/permissions.tsx";

type Version = RouterOutputs["graders"]["versions"]["versions"][number];

export function GraderHistoryDialog({ grader, onClose }: { grader: Grader; onClose: () => void }) {
  const canRevert = useCan("manage-graders");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const history = useQuery(trpc.graders.versions.queryOptions({ id: grader.id }));
  const [confirming, setConfirming] = useState<number | null>(null);
  const revert = useMutation(trpc.graders.revert.mutationOptions({
    onSuccess: async () => {
      setConfirming(null);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.graders.versions.queryKey({ id: grader.id }) }),
        queryClient.invalidateQueries({ queryKey: trpc.graders.list.queryKey() }),
      ]);
    },
  }));
  return (
    <Dialog open onOpenChange={(o) => { if (!o) onClose(); }} title={`History of ${grader.name}`}
      description="Every version, newest first: who changed what, and when. Reverting writes a new version equal to the one chosen.">
      {history.isPending ? <LoadingState label="Loading history" /> : history.isError ? <ErrorState error={history.error} onRetry={() => history.refetch()} /> : (
        <ol className="space-y-3" aria-label="Versions">
          {history.data.versions.map((v, i) => (
            <li key={v.version} aria-label={`Version ${v.version}`} className="space-y-1.5 rounded-md border border-zinc-200 px-3 py-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="text-sm font-medium text-zinc-900">
                  Version {v.version} {i === 0 ? <Badge tone="accent" className="ml-1">current</Badge> : null}
                  {v.author.via === "mcp" ? <Badge tone="warn" className="ml-1">agent</Badge> : null}
                </p>
                {i > 0 ? (
                  confirming === v.version ? (
                    <span className="flex gap-1.5">
                      <Button size="sm" disabled={revert.isPending} onClick={() => revert.mutate({ id: grader.id, version: v.version })}>Confirm revert</Button>
                      <Button size="sm" variant="ghost" onClick={() => setConfirming(null)}>Cancel</Button>
                    </span>
                  ) : !canRevert ? null : <Button size="sm" variant="secondary" onClick={() => setConfirming(v.version)} aria-label={`Revert to version ${v.version}`}>Revert to this</Button>
                ) : null}
              </div>
              <p className="text-xs text-zinc-500">
                {authorText(v.author)} · <time dateTime={v.createdAt} title={formatDateTime(v.createdAt)}>{formatRelative(v.createdAt)}</time>
              </p>
              <p className="text-xs text-zinc-700">{v.summary}</p>
              {v.changes.length ? <VersionDiff version={v} /> : null}
            </li>
          ))}
        </ol>
      )}
      <FormError error={revert.error} />
      <div className="mt-4 flex justify-end"><Button variant="secondary" onClick={onClose}>Close</Button></div>
    </Dialog>
  );
}

function authorText(a: Version["author"]): string {
  const who = a.name ?? (a.via === "migration" ? "Unknown author (before history was kept)" : "A deleted user");
  if (a.via === "console") return `${who} in the console`;
  if (a.via === "rest") return `${who} with a REST key`;
  if (a.via === "mcp") return `An agent through ${a.tool ?? "an MCP tool"} (key of ${who})`;
  return who;
}

/** The changed fields of a version against the one before: removed lines in red, added in green. */
function VersionDiff({ version }: { version: Version }) {
  return (
    <div role="group" aria-label={`Changes in version ${version.version}`} className="space-y-1.5">
      {version.changes.map((c) => (
        <div key={c.path} className="overflow-hidden rounded border border-zinc-200 text-xs">
          <p className="bg-zinc-50 px-2 py-0.5 font-mono text-zinc-600">{c.path}</p>
          <pre className="max-h-48 overflow-auto px-2 py-1 font-mono whitespace-pre-wrap">
            {diffLines(readable(c.before), readable(c.after)).map((l, i) => (
              <span key={i} className={l.op === "-" ? "block bg-red-50 text-red-800" : l.op === "+" ? "block bg-emerald-50 text-emerald-800" : "block text-zinc-500"}>
                {l.op === "=" ? " " : l.op} {l.text}
              </span>
            ))}
          </pre>
        </div>
      ))}
    </div>
  );
}

/** A JSON text as its lines: a string's own text, other values as JSON; null (absent) as no lines. */
function readable(json: string | null): string[] {
  if (json === null) return [];
  const value: unknown = JSON.parse(json);
  return (typeof value === "string" ? value : JSON.stringify(value)).split("\n");
}

/** A line diff by longest common subsequence (instructions are at most a few hundred lines). */
export function diffLines(a: string[], b: string[]): { op: "-" | "+" | "="; text: string }[] {
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: { op: "-" | "+" | "="; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) { out.push({ op: "=", text: a[i] }); i++; j++; }
    else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) out.push({ op: "-", text: a[i++] });
    else out.push({ op: "+", text: b[j++] });
  }
  return out;
}
