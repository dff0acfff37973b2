"use client";
// Beside the focused review card: the scores and categories of its trace's graders that record them, recorded
// with the trace page's form (the same service: history kept, undoable, audited; docs/console.md, "Review").
import { GraderLabels } from "../traces/[id]/grader-labels.tsx";
import { useTrace } from "../traces/use-trace.ts";

export function TraceScores({ traceId }: { traceId: string }) {
  const trace = useTrace(traceId);
  return trace.data ? <GraderLabels data={trace.data} scored /> : null;
}
