// A decoded OTLP logs request (server/ingest/otlp-wire/decode-otlp.ts, either encoding) → GenAI events of
// spans. Only log records that are GenAI events (event name gen_ai.*) are kept; other log records are
// accepted and ignored, as a collector's traces-only pipeline would. A GenAI event without a valid
// span context cannot be attached to anything and is reported in partialSuccess.
import { logRecordLocation, type TOtlpLogsRequest } from "../otlp-wire/otlp-request.ts";
import { anyValue, keyValues, nanosToIso, validId, type TOtelEvent } from "./otel-span.ts";

export interface TSpanEvent {
  location: string;
  traceId: string;
  spanId: string;
  event: TOtelEvent;
}

export function readLogEvents(request: TOtlpLogsRequest): { events: TSpanEvent[]; problems: string[] } {
  const events: TSpanEvent[] = [];
  const problems: string[] = [];
  request.resourceLogs.forEach((rl, i) => {
    rl.scopeLogs.forEach((sl, j) => {
      sl.logRecords.forEach((record, k) => {
        const location = logRecordLocation(i, j, k);
        const attributes = keyValues(record.attributes);
        const name = record.eventName || attributes["event.name"];
        if (typeof name !== "string" || !name.startsWith("gen_ai.")) return;
        const traceId = validId(record.traceId, 16);
        const spanId = validId(record.spanId, 8);
        if (!traceId || !spanId) {
          problems.push(`${location}: the GenAI event ${name} has no valid traceId and spanId, so it belongs to no span`);
          return;
        }
        const time = nanosToIso(record.timeUnixNano) ?? nanosToIso(record.observedTimeUnixNano);
        const body = record.body === undefined ? undefined : anyValue(record.body);
        events.push({ location, traceId, spanId, event: { name, time, attributes, ...(body !== undefined && body !== null ? { body } : {}) } });
      });
    });
  });
  return { events, problems };
}
