// The REST doors of ingestion (docs/api/ingestion.md: POST /api/sdk/externalSpans, /externalTraces,
// /functions/{functionId}/traces). Thin: parse with the shared payload schemas, call ingestBatch, map a
// rejection to the error body. The OTLP door is otlp/otlp.http.ts.
import { z } from "zod";
import type { TAuthContext } from "../auth/auth.schemas.ts";
import type { Database } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { decodeUtf8Text } from "../shared/input-text.ts";
import { defineRoute } from "../http/define-route.ts";
import type { TIngestOperation, TIngestResult, TRejection } from "./ingest.schemas.ts";
import { ingestBatch } from "./ingest.service.ts";
import { withIngestBody } from "./memory-budget.ts";
import { parsePayloadText } from "./payloads/parse-payload.ts";

const CODE_OF: Record<TRejection["code"], "invalid_json" | "validation_failed" | "not_found" | "bad_request"> = {
  invalid_json: "invalid_json",
  validation_failed: "validation_failed",
  not_found: "not_found",
  unstorable: "bad_request",
};

export function rejectionToError(rejection: TRejection): AppError {
  const message = `Invalid request body: ${rejection.message}`;
  if (rejection.code === "not_found") return new AppError("not_found", rejection.message.replace(/^./, (c) => c.toUpperCase()));
  return new AppError(CODE_OF[rejection.code], message, { issues: rejection.issues });
}

/** Ingests one payload of a REST door; a rejection is that door's error answer. */
async function ingestOne(db: Database, auth: TAuthContext, raw: Buffer, operation: TIngestOperation, functionId?: string): Promise<TIngestResult> {
  const parsed = parsePayloadText(operation, decodeUtf8Text(raw, "body"), functionId);
  if (!parsed.ok) throw rejectionToError(parsed.rejection);
  const result = await ingestBatch(db, auth, [parsed.item]);
  const rejection = result.rejected.get(0);
  if (rejection) throw rejectionToError(rejection);
  return result;
}

/** POST /api/sdk/externalSpans: one span payload (docs/api/ingestion.md, "Span payload"). */
export const postExternalSpan = defineRoute({
  permission: "ingest",
  body: "deferred",
  // Fire-and-forget for the SDKs (they read only `error`); the map tells other callers the canonical id.
  handler: ({ db, auth, body }) => withIngestBody(body, async (raw) => ({ traceIds: (await ingestOne(db, auth, raw, "external_span")).traceIds })),
});

/** POST /api/sdk/externalTraces: the trace completion signal (docs/api/ingestion.md, "Trace completion"). */
export const postExternalTrace = defineRoute({
  permission: "ingest",
  body: "deferred",
  handler: ({ db, auth, body }) => withIngestBody(body, async (raw) => ({ traceIds: (await ingestOne(db, auth, raw, "external_trace")).traceIds })),
});

/** POST /api/sdk/functions/{functionId}/traces: a function execution; unknown or foreign function → 404. */
export const postFunctionTrace = defineRoute({
  permission: "ingest",
  body: "deferred",
  params: z.object({ functionId: z.string().min(1) }),
  handler: ({ db, auth, body, params }) =>
    withIngestBody(body, async (raw) => ({ id: (await ingestOne(db, auth, raw, "internal_trace", params.functionId)).functionExecutionIds[0] })),
});
