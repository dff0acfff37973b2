"use client";
// An assertion's versions (docs/console.md, "Assertions"): what it says now, and what every edit replaced,
// newest first, each with who wrote it and who replaced it (a person in the console, an agent, an API key).
// "Restore" brings a version back; what it says now is kept as a version in turn, so a restore is undone the
// same way.
import { useMutation, useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { formatDateTime } from "@/components/ui/format.ts";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { describeCheck } from "@/components/check-fields.tsx";
import { describeTarget } from "@/components/target-picker.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { useInvalidateAssertions } from "./assertion-dialog.tsx";
import { StateBadge } from "./state-badge.tsx";
import { useCan } from "../_components/permissions.tsx";

type History = RouterOutputs["assertions"]["history"];
type Version = History["versions"][number];
type User = { email: string | null; fullName: string | null } | null;

const through: Record<string, string> = { person: "in the console", agent: "by an agent", rest: "through the API" };
const who = (u: User, via: string) => `${u?.fullName || u?.email || "an API key"} ${through[via] ?? ""}`.trim();

function Snapshot({ v }: { v: Pick<Version, "assertion" | "targetOnEvaluatedTrace" | "check" | "passCriteria" | "failCriteria" | "humanNote" | "approvalState"> }) {
  return (
    <div className="space-y-1 text-sm">
      <p className="font-medium break-words text-zinc-900">{v.assertion}</p>
      <div className="flex flex-wrap gap-1.5 text-xs">
        <StateBadge state={v.approvalState} />
        <Badge>{describeTarget(v.targetOnEvaluatedTrace)}</Badge>
        <Badge tone="accent">{describeCheck(v.check) ?? "No check: judged by a person or the LLM judge"}</Badge>
      </div>
      {v.passCriteria ? <p className="text-xs text-zinc-600">Passes when {v.passCriteria}</p> : null}
      {v.failCriteria ? <p className="text-xs text-zinc-600">Fails when {v.failCriteria}</p> : null}
      {v.humanNote ? <p className="text-xs whitespace-pre-wrap text-zinc-600">Note: {v.humanNote}</p> : null}
    </div>
  );
}

export function AssertionHistory({ assertionId, onClose }: { assertionId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateAssertions();
  const history = useQuery(trpc.assertions.history.queryOptions({ assertionId }));
  const revert = useMutation(trpc.assertions.revert.mutationOptions({ onSuccess: invalidate }));
  const canCurate = useCan("curate");
  return (
    <Dialog open onOpenChange={(o) => { if (!o) onClose(); }} title="Assertion history" description="What this assertion says now, and what each edit replaced. Restoring a version keeps the current one as a version too.">
      {history.isPending ? <LoadingState label="Loading the history" /> : history.isError ? <ErrorState error={history.error} /> : (
        <ol className="space-y-3" aria-label="Versions">
          <li className="rounded-md border border-accent-200 p-3" aria-label={`Version ${history.data.current.version} (current)`}>
            <p className="mb-1 text-xs text-zinc-500">Version {history.data.current.version}, current · written {who(history.data.current.writtenBy, history.data.current.writtenThrough)} · {formatDateTime(history.data.current.writtenAt)}</p>
            <Snapshot v={history.data.current} />
          </li>
          {history.data.versions.map((v) => (
            <li key={v.version} className="rounded-md border border-zinc-200 p-3" aria-label={`Version ${v.version}`}>
              <p className="mb-1 text-xs text-zinc-500">
                Version {v.version} · written {who(v.writtenBy, v.writtenThrough)} · {formatDateTime(v.writtenAt)} · replaced {who(v.replacedBy, v.replacedThrough)} · {formatDateTime(v.replacedAt)}
              </p>
              <Snapshot v={v} />
              {canCurate ? <Button className="mt-2" size="sm" variant="secondary" disabled={revert.isPending} onClick={() => revert.mutate({ assertionId, version: v.version })}
                aria-label={`Restore version ${v.version}`}>Restore this version</Button> : null}
            </li>
          ))}
          {history.data.versions.length === 0 ? <li className="text-xs text-zinc-500">Never edited since it was written.</li> : null}
        </ol>
      )}
      <FormError error={revert.error} />
      <div className="mt-4 flex justify-end"><Button variant="secondary" onClick={onClose}>Close</Button></div>
    </Dialog>
  );
}
