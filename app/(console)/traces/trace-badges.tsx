import { Badge, type BadgeTone } from "@/components/ui/badge.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { formatDateTime, formatRelative } from "@/components/ui/format.ts";

type Verdict = Pick<NonNullable<RouterOutputs["traces"]["get"]["verdict"]>, "labelStatus" | "label" | "labelSource" | "approved">;

const statusTone: Record<string, BadgeTone> = { completed: "pass", failed: "fail", pending: "warn" };

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={statusTone[status] ?? "neutral"}>{status}</Badge>;
}

/** captured / seeded, or replay when the trace was produced by an experiment. */
export function KindBadge({ ingestionType, testRunId }: { ingestionType: string; testRunId: string | null }) {
  if (testRunId) return <Badge tone="accent">replay</Badge>;
  return <Badge>{ingestionType}</Badge>;
}

/** Shown when a span was trimmed (payload_budget) or not captured exactly (serialization_degraded). */
export function FaithfulBadge({ faithful, captureIssues }: { faithful: boolean; captureIssues: string[] }) {
  if (faithful) return null;
  return (
    <Badge tone="warn" title={`Not a faithful recording (${captureIssues.join(", ")}): a replay may not reproduce it, and replays by limit skip it.`}>
      not faithful
    </Badge>
  );
}

export function VerdictBadge({ verdict }: { verdict: Verdict | null | undefined }) {
  if (!verdict || verdict.labelStatus === "unlabeled") return <span className="text-xs text-zinc-400">unlabeled</span>;
  if (verdict.labelStatus === "skipped") return <Badge>skipped</Badge>;
  if (verdict.labelStatus === "errored") return <Badge tone="warn">errored</Badge>;
  const pending = verdict.labelSource === "agent" && !verdict.approved;
  return (
    <span className="inline-flex items-center gap-1">
      <Badge tone={verdict.label ? "pass" : "fail"}>{verdict.label ? "pass" : "fail"}</Badge>
      <span className="text-xs text-zinc-500">
        {verdict.labelSource}
        {pending ? " · unapproved" : verdict.labelSource !== "human" ? " · approved" : ""}
      </span>
    </span>
  );
}

type VerdictRecord = RouterOutputs["traces"]["get"]["verdictRecords"][number];

/** Who recorded the current verdict of a target and when ("by ada@example.com · 2 min ago"). */
export function RecordedBy({ records, assertionId }: { records: VerdictRecord[]; assertionId: string | null }) {
  const r = records.find((x) => x.assertionId === assertionId);
  if (!r) return null;
  const who = r.recordedBy ?? (r.labelSource === "human" ? "a deleted user" : `an ${r.labelSource === "judge" ? "LLM judge" : "agent"} (API key)`);
  return (
    <span className="text-xs text-zinc-500" data-testid="recorded-by">
      by {who} · <time dateTime={r.recordedAt} title={formatDateTime(r.recordedAt)}>{formatRelative(r.recordedAt)}</time>
    </span>
  );
}
