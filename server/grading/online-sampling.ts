// The sampling hash of online evaluation in JavaScript (docs/graders.md, "Online evaluation"): the same
// bucket the database computes in online.queries.ts, for tests and for explaining a decision.
import { createHash } from "node:crypto";
import { SAMPLE_BUCKETS } from "../graders/online-settings.schemas.ts";

/** The trace's bucket, 0 to 9,999: the first 32 bits of md5(lower-case id) modulo 10,000. */
export function sampledBucket(traceId: string): number {
  return Number.parseInt(createHash("md5").update(traceId.toLowerCase()).digest("hex").slice(0, 8), 16) % SAMPLE_BUCKETS;
}

/** Whether a trace is in a sample of `sampleRate` percent. */
export function isSampled(traceId: string, sampleRate: number): boolean {
  return sampledBucket(traceId) < Math.round(sampleRate * 100);
}
