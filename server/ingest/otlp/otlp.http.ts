// POST /api/sdk/otel/v1/traces (docs/api/ingestion.md, "OTLP"): OTLP/JSON and OTLP/protobuf carriers, answered in
// the request's encoding. The request is decoded and its envelope validated first (otlp-wire/decode-otlp.ts:
// 400, nothing stored); then each carrier is parsed with the same schemas as the REST doors, and all valid
// ones go through one ingestBatch. Bad carriers are counted in partialSuccess; spans that are not carriers
// are ignored and the answer says how many and where they belong. The answer comes after everything accepted is committed.
import { getEnv } from "../../env.ts";
import { defineRoute } from "../../http/define-route.ts";
import type { TIngestItem } from "../ingest.schemas.ts";
import { ingestBatch } from "../ingest.service.ts";
import { withOtlpTraces } from "../otlp-wire/decode-otlp.ts";
import { exportResponse, ignoredSpansNote, otlpErrors } from "../otlp-wire/otlp-response.ts";
import { isIngestOperation, parsePayloadText } from "../payloads/parse-payload.ts";
import { findCarriers, type TCarrier } from "./carriers.ts";

/** Carriers → items to ingest, and a reason per carrier that cannot be. */
export function carriersToItems(carriers: TCarrier[]): { items: TIngestItem[]; locations: string[]; reasons: string[] } {
  const items: TIngestItem[] = [];
  const locations: string[] = [];
  const reasons: string[] = [];
  for (const carrier of carriers) {
    if ("problem" in carrier) {
      reasons.push(`${carrier.location}: ${carrier.problem}`);
      continue;
    }
    if (!isIngestOperation(carrier.operation)) {
      reasons.push(`${carrier.location}: unknown operation "${carrier.operation.slice(0, 64)}"`);
      continue;
    }
    const parsed = parsePayloadText(carrier.operation, carrier.payload);
    if (!parsed.ok) {
      reasons.push(`${carrier.location}: ${parsed.rejection.message}`);
      continue;
    }
    items.push(parsed.item);
    locations.push(carrier.location);
  }
  return { items, locations, reasons };
}

export const postOtlpTraces = defineRoute({
  permission: "ingest",
  body: "deferred",
  errors: otlpErrors,
  handler: ({ request, db, auth, body }) =>
    withOtlpTraces(request, body, async ({ request: decoded, format }) => {
      const { carriers, ignored } = findCarriers(decoded);
      const { items, locations, reasons } = carriersToItems(carriers);
      const result = await ingestBatch(db, auth, items, { concurrency: getEnv().REPRISE_OTLP_INGEST_CONCURRENCY });
      for (const [index, rejection] of result.rejected) reasons.push(`${locations[index]}: ${rejection.message}`);
      return exportResponse(format, reasons, result.traceIds, undefined, ignored > 0 ? [ignoredSpansNote(ignored)] : []);
    }),
});
