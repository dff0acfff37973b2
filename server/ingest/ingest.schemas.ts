// Shapes shared by the four ingestion doors (docs/architecture.md, "Ingestion and completion": one ingestion service, four doors): the parsed
// items handed to ingestBatch, its result, and the REST response bodies.
import { z } from "zod";
import type { ValidationIssue } from "../errors.ts";
import type { TExternalSpanPayload } from "./payloads/span-payload.schemas.ts";
import type { TExternalTracePayload } from "./payloads/trace-payload.schemas.ts";
import type { TFunctionTracePayload } from "./payloads/function-trace.schemas.ts";

export const INGEST_OPERATIONS = ["external_span", "external_trace", "internal_trace"] as const;
export type TIngestOperation = (typeof INGEST_OPERATIONS)[number];

/** A capture-quality note the server adds to a span's `errors` (docs/api/ingestion.md, "Data hygiene"). */
export interface TServerNote {
  source: "server";
  step: string;
  error: string;
}

/**
 * A validated payload. `raw` is the original parsed object, stored verbatim (zod's output drops
 * `__proto__` keys, so it is used only for typed fields); `notes` are server notes such as sanitizing.
 * `text` is the payload's JSON text when `raw` is exactly what it says (nothing was sanitized): the
 * write embeds it instead of serializing `raw` again.
 */
export type TIngestItem =
  | { operation: "external_span"; raw: Record<string, unknown>; payload: TExternalSpanPayload; notes: TServerNote[]; text?: string }
  | { operation: "external_trace"; raw: Record<string, unknown>; payload: TExternalTracePayload; notes: TServerNote[] }
  | {
      operation: "internal_trace";
      raw: Record<string, unknown>;
      payload: TFunctionTracePayload;
      functionId: string;
      notes: TServerNote[];
    };

/** Why one item (a REST body or an OTLP carrier) was not stored. */
export interface TRejection {
  code: "invalid_json" | "validation_failed" | "not_found" | "unstorable";
  message: string;
  issues?: ValidationIssue[];
}

export interface TIngestResult {
  /** sourceTraceId → canonical trace id, for every trace an accepted item touched (docs/api/ingestion.md, "OTLP"). */
  traceIds: Record<string, string>;
  /** Ids of function executions recorded, in item order (internal_trace items only). */
  functionExecutionIds: string[];
  /** Rejections by item index; items not listed were stored (or deliberately discarded, as spans of a dropped trace). */
  rejected: Map<number, TRejection>;
}

export const ZIngestResponse = z.object({ traceIds: z.record(z.string(), z.string()) });
export const ZFunctionTraceResponse = z.object({ id: z.string().uuid() });
