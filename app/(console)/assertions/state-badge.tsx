// An assertion's review state (docs/api/assertions.md, "Review"): only approved ones are judged on replay.
import { Badge, type BadgeTone } from "@/components/ui/badge.tsx";

const STATES: Record<string, [string, BadgeTone, string]> = {
  approved: ["Approved", "pass", "Judged on every replay of its trace"],
  pending: ["Pending review", "warn", "Not judged until someone approves it"],
  rejected: ["Rejected", "fail", "Never judged"],
};

export function StateBadge({ state }: { state: string }) {
  const [label, tone, title] = STATES[state] ?? [state, "neutral", ""];
  return <Badge tone={tone} title={title}>{label}</Badge>;
}
