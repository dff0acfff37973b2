import type { HttpOutcome } from "../http/request.js";
import { parseRetryAfter } from "../http/retry-after.js";
import type { AttemptResult } from "./retrying-sender.js";
import type { ResponseSummary } from "./types.js";

/**
 * Statuses retried by the transport (docs/sdk-transport.md, rule 8, which lists 408 and 425 too). 413 and other 4xx
 * are not.
 */
const RETRYABLE_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);

/** Classifies an OTLP exchange: success, rejection (never retried) or retryable failure. */
export function classifyOtlpOutcome(
  outcome: HttpOutcome,
  readResponse: (body: Buffer) => ResponseSummary,
): AttemptResult {
  if (outcome.kind === "network_error") {
    return { kind: "retryable", message: `network error: ${outcome.error.message}` };
  }
  const { status, headers, body } = outcome;
  if (status >= 200 && status < 300) return classifySuccess(status, body, readResponse);
  const message = `HTTP ${status}${describeBody(body)}`;
  if (RETRYABLE_STATUSES.has(status)) {
    return { kind: "retryable", status, message, retryAfterMs: parseRetryAfter(headers["retry-after"]) };
  }
  return { kind: "rejected", status, message };
}

function classifySuccess(status: number, body: Buffer, readResponse: (body: Buffer) => ResponseSummary): AttemptResult {
  const summary = readResponse(body);
  if (summary.error !== undefined) return { kind: "rejected", status, message: `rejected: ${summary.error}` };
  if (summary.rejectedSpans > 0) {
    return {
      kind: "rejected",
      status,
      message: `${summary.rejectedSpans} carrier(s) rejected: ${summary.errorMessage ?? "no reason given"}`,
    };
  }
  return { kind: "ok", body };
}

function describeBody(body: Buffer): string {
  if (body.length === 0) return "";
  return `: ${body.subarray(0, 500).toString("utf8")}`;
}
