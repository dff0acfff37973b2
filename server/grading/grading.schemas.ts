// Verdicts and the span shape graders read (docs/graders.md).
/** One grader's verdict on one trace: label null means errored, with failureDiagnostic saying why. */
export interface TVerdict {
  label: boolean | null;
  reason: string | null;
  failureDiagnostic: string | null;
  confidence: string | null;
  /** A score within the grader's range, or a category of its set (docs/graders.md, "Scores and categories"). */
  score?: number | null;
  category?: string | null;
}

export const erroredVerdict = (failureDiagnostic: string): TVerdict => ({ label: null, reason: null, failureDiagnostic, confidence: null });

/** A span as grading reads it (spans row + raw_span->'span_data'). */
export interface TGradingSpan {
  id: string;
  parentSpanId: string | null;
  name: string;
  type: string;
  startedAt: Date | null;
  endedAt: Date | null;
  error: string | null;
  input: unknown;
  output: unknown;
  contentOff: boolean;
  inputTokens: number | null;
  outputTokens: number | null;
  totalTokens: number | null;
}
