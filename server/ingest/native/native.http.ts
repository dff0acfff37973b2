// The native OpenTelemetry door (docs/otel.md): POST /api/otel/v1/traces and POST /v1/traces, so that
// OTEL_EXPORTER_OTLP_ENDPOINT=<base url> works. OTLP/JSON and protobuf, gzip or deflate, the same body
// limits and API keys as /api/sdk/*, answered in the request's encoding after everything accepted is
// committed. Spans are mapped from the GenAI conventions and written by the carrier door's write path.
import { getEnv } from "../../env.ts";
import type { DeferredBody } from "../../http/body.ts";
import { defineRoute } from "../../http/define-route.ts";
import { ingestBatch } from "../ingest.service.ts";
import { withIngestBody } from "../memory-budget.ts";
import { exportResponse, otlpFormatOf, withOtlpErrorEncoding } from "../otlp/otlp-response.ts";
import { sanitizeJsonValue } from "../payloads/sanitize.ts";
import { decodeJsonRequest, decodeProtobufRequest } from "./decode-request.ts";
import { recordNativeTraces } from "./native.queries.ts";
import { toNativeItems } from "./to-items.ts";

export const postNativeTraces = withOtlpErrorEncoding(
  defineRoute({
    body: "deferred",
    handler: async ({ request, db, auth, body }) => {
      const format = otlpFormatOf(request.headers.get("content-type"));
      return withIngestBody(body as unknown as DeferredBody, async (raw) => {
        const decoded = format === "protobuf" ? decodeProtobufRequest(raw) : decodeJsonRequest(raw);
        const { items, locations, reasons, traces } = toNativeItems(auth.organizationId, decoded.spans);
        sanitizeJsonValue([...traces.values()], { nul: 0, surrogates: 0 });
        const result = await ingestBatch(db, auth, items, {
          concurrency: getEnv().REPRISE_OTLP_INGEST_CONCURRENCY,
          afterWrite: (tx, traceIds) => recordNativeTraces(tx, auth.organizationId, traceIds.flatMap((id) => traces.get(id) ?? [])),
        });
        const all = [...decoded.problems, ...reasons];
        for (const [index, rejection] of result.rejected) all.push(`${locations[index]}: ${rejection.message}`);
        return exportResponse(format, all, undefined, "span(s)");
      });
    },
  }),
);
