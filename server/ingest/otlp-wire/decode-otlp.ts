// The one OTLP decoder of both OTLP doors (the carrier door, server/ingest/otlp/, and the native door,
// server/ingest/native/): a request body, inflated once the memory budget admits it (memory-budget.ts;
// gzip and deflate and the size limit are the body reader's, server/http/body.ts), decoded once by its
// Content-Type, OTLP/JSON or OTLP/protobuf, into the typed request of otlp-request.ts. A body that is not
// the named export request is a 400 and nothing is stored (docs/api/ingestion.md, "OTLP"; docs/otel.md,
// "The endpoints").
import { decodeExportLogsRequest, decodeExportRequest } from "../../../proto/otlp.ts";
import type { DeferredBody } from "../../http/body.ts";
import { withIngestBody } from "../memory-budget.ts";
import { logsEnvelope, logsFromJson, tracesEnvelope, tracesFromJson } from "./from-json.ts";
import { logsFromProtobuf, tracesFromProtobuf } from "./from-protobuf.ts";
import type { TOtlpLogsRequest, TOtlpTracesRequest } from "./otlp-request.ts";
import { otlpFormatOf, type TOtlpFormat } from "./otlp-response.ts";

export function decodeOtlpTraces(format: TOtlpFormat, body: Buffer): TOtlpTracesRequest {
  return format === "protobuf"
    ? tracesFromProtobuf(tracesEnvelope.fromProtobuf(body, decodeExportRequest))
    : tracesFromJson(tracesEnvelope.fromJson(body));
}

export function decodeOtlpLogs(format: TOtlpFormat, body: Buffer): TOtlpLogsRequest {
  return format === "protobuf"
    ? logsFromProtobuf(logsEnvelope.fromProtobuf(body, decodeExportLogsRequest))
    : logsFromJson(logsEnvelope.fromJson(body));
}

/** What a door's handler receives: the decoded request and the encoding to answer in. */
export interface TOtlpExport<R> {
  request: R;
  format: TOtlpFormat;
}

function withOtlpBody<R, T>(request: Request, body: DeferredBody, decode: (format: TOtlpFormat, raw: Buffer) => R, fn: (decoded: TOtlpExport<R>) => Promise<T>): Promise<T> {
  const format = otlpFormatOf(request.headers.get("content-type"));
  return withIngestBody(body, (raw) => fn({ request: decode(format, raw), format }));
}

/** Runs `fn` on a traces export request's body, decoded, within the ingestion memory budget. */
export const withOtlpTraces = <T>(request: Request, body: DeferredBody, fn: (decoded: TOtlpExport<TOtlpTracesRequest>) => Promise<T>) =>
  withOtlpBody(request, body, decodeOtlpTraces, fn);

/** Runs `fn` on a logs export request's body, decoded, within the ingestion memory budget. */
export const withOtlpLogs = <T>(request: Request, body: DeferredBody, fn: (decoded: TOtlpExport<TOtlpLogsRequest>) => Promise<T>) =>
  withOtlpBody(request, body, decodeOtlpLogs, fn);
