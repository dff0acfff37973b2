// POST /api/otel/v1/logs and POST /v1/logs (docs/otel.md): GenAI events sent as OpenTelemetry log
// records, which some instrumentations use for messages (the OpenTelemetry JS OpenAI instrumentation,
// the older GenAI event conventions). Each event is stored once and its span is mapped again; other log
// records are accepted and ignored. Same encodings, limits and API keys as the traces door.
import { createHash } from "node:crypto";
import { defineRoute } from "../../http/define-route.ts";
import { json } from "../../http/responses.ts";
import { canonicalId } from "../../ids.ts";
import { encodeExportLogsResponse } from "../../../proto/otlp.ts";
import { withOtlpLogs } from "../otlp-wire/decode-otlp.ts";
import { summarizeRejections, otlpErrors } from "../otlp-wire/otlp-response.ts";
import { sanitizeJsonValue } from "../payloads/sanitize.ts";
import { redactLogEvents } from "../redact-items.ts";
import { insertEvents, type TEventRow } from "./events.queries.ts";
import { readLogEvents, type TSpanEvent } from "./read-log-events.ts";
import { remapStoredSpans } from "./remap.ts";
import { nativeSpanId } from "./to-items.ts";

function toRow(organizationId: string, e: TSpanEvent, seq: number): TEventRow {
  const content = JSON.stringify([e.event.name, e.event.time, e.event.attributes, e.event.body ?? null]);
  return {
    span_id: nativeSpanId(organizationId, e),
    trace_id: canonicalId(organizationId, e.traceId),
    event_key: createHash("sha1").update(content).digest("hex"),
    name: e.event.name,
    time: e.event.time,
    attributes: e.event.attributes,
    body: e.event.body ?? null,
    seq,
  };
}

export const postNativeLogs = defineRoute({
  body: "deferred",
  errors: otlpErrors,
  handler: ({ request, db, auth, body }) =>
    withOtlpLogs(request, body, async ({ request: otlp, format }) => {
      const { events, problems } = readLogEvents(otlp);
      const rows = events.map((e, i) => toRow(auth.organizationId, e, i));
      sanitizeJsonValue(rows, { nul: 0, surrogates: 0 });
      await redactLogEvents(db, auth.organizationId, rows as unknown as Record<string, unknown>[]);
      const changed = await db.sql.transaction((tx) => insertEvents(tx, auth.organizationId, rows));
      await remapStoredSpans(db, auth, changed);
      const partialSuccess = problems.length > 0 ? { rejectedLogRecords: problems.length, errorMessage: summarizeRejections(problems, "log record(s)") } : undefined;
      if (format === "protobuf") {
        return new Response(new Uint8Array(encodeExportLogsResponse(partialSuccess)), { headers: { "content-type": "application/x-protobuf" } });
      }
      return json(partialSuccess ? { partialSuccess } : {});
    }),
});
