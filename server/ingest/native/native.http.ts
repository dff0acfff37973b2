// The native OpenTelemetry door (docs/otel.md): POST /api/otel/v1/traces and POST /v1/traces, so that
// OTEL_EXPORTER_OTLP_ENDPOINT=<base url> works. OTLP/JSON and protobuf, gzip or deflate, the same body
// limits and API keys as /api/sdk/*, answered in the request's encoding after everything accepted is
// committed. Spans are mapped from the GenAI conventions and written by the carrier door's write path.
import { getEnv } from "../../env.ts";
import { defineRoute } from "../../http/define-route.ts";
import { ingestBatch } from "../ingest.service.ts";
import { withOtlpTraces } from "../otlp-wire/decode-otlp.ts";
import { exportResponse, otlpErrors } from "../otlp-wire/otlp-response.ts";
import { sanitizeJsonValue } from "../payloads/sanitize.ts";
import { redactNativeTraces } from "../redact-items.ts";
import { recordNativeTraces } from "./native.queries.ts";
import { readOtelSpans } from "./read-spans.ts";
import { loadLogEvents, remapStoredSpans } from "./remap.ts";
import { nativeSpanId, toNativeItems } from "./to-items.ts";

export const postNativeTraces = defineRoute({
  body: "deferred",
  errors: otlpErrors,
  handler: ({ request, db, auth, body }) =>
    withOtlpTraces(request, body, async ({ request: otlp, format }) => {
      const decoded = readOtelSpans(otlp);
      // GenAI events may have come first as log records (native-logs.http.ts): map them in now.
      const genAi = decoded.spans.filter((s) => Object.keys(s.span.attributes).some((k) => k.startsWith("gen_ai."))).map((s) => nativeSpanId(auth.organizationId, s.span));
      const before = await loadLogEvents(db, auth.organizationId, genAi);
      const { items, locations, reasons, traces } = toNativeItems(auth.organizationId, decoded.spans, before.bySpan);
      sanitizeJsonValue([...traces.values()], { nul: 0, surrogates: 0 });
      await redactNativeTraces(db, auth.organizationId, traces.values() as Iterable<unknown> as Iterable<Record<string, unknown>>);
      const result = await ingestBatch(db, auth, items, {
        concurrency: getEnv().REPRISE_OTLP_INGEST_CONCURRENCY,
        afterWrite: (tx, traceIds, stamp) => recordNativeTraces(tx, auth.organizationId, traceIds.flatMap((id) => traces.get(id) ?? []), stamp),
      });
      // Events that committed while these spans were written: map those spans once more.
      const after = await loadLogEvents(db, auth.organizationId, genAi);
      const missed = [...after.keys].filter((k) => !before.keys.has(k)).map((k) => k.split(":")[0]);
      if (missed.length > 0) await remapStoredSpans(db, auth, [...new Set(missed)]);
      const all = [...decoded.problems, ...reasons];
      for (const [index, rejection] of result.rejected) all.push(`${locations[index]}: ${rejection.message}`);
      return exportResponse(format, all, undefined, "span(s)");
    }),
});
