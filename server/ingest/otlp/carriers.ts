// Carrier spans inside an OTLP ExportTraceServiceRequest (docs/api/ingestion.md,
// "OTLP"): a span carrying `reprise.operation` + `reprise.payload` (or the `bitfab.` pair) holds one
// ingestion payload. Spans without them are ignored; their OTel ids are never read. The request comes
// decoded, from either encoding, by the one OTLP decoder (server/ingest/otlp-wire/decode-otlp.ts).
import type { TOtlpKeyValue, TOtlpTracesRequest } from "../otlp-wire/otlp-request.ts";
import { spanLocation } from "../otlp-wire/otlp-request.ts";

export const OPERATION_KEYS = ["reprise.operation", "bitfab.operation"] as const;
export const PAYLOAD_KEYS = ["reprise.payload", "bitfab.payload"] as const;

/** Where a carrier sits in the request, for error messages: resourceSpans[i].scopeSpans[j].spans[k]. */
export type TCarrier =
  | { location: string; operation: string; payload: string }
  | { location: string; problem: string };

/** A request's carriers, and how many of its spans were not carriers (ignored, and said so). */
export interface TDecodedCarriers {
  carriers: TCarrier[];
  ignored: number;
}

/** Reads one span's carrier attributes; null when the span is not a carrier at all. */
export function readCarrier(location: string, attributes: TOtlpKeyValue[]): TCarrier | null {
  let operation: TOtlpKeyValue | undefined;
  let payload: TOtlpKeyValue | undefined;
  for (const attribute of attributes) {
    // The reprise.* keys win over bitfab.* when a span somehow has both.
    if ((OPERATION_KEYS as readonly string[]).includes(attribute.key)) {
      if (!operation || attribute.key === OPERATION_KEYS[0]) operation = attribute;
    } else if ((PAYLOAD_KEYS as readonly string[]).includes(attribute.key)) {
      if (!payload || attribute.key === PAYLOAD_KEYS[0]) payload = attribute;
    }
  }
  if (!operation && !payload) return null;
  if (!operation) return { location, problem: `has ${payload!.key} but no operation attribute` };
  if (!payload) return { location, problem: `has ${operation.key} but no payload attribute` };
  if (!("stringValue" in operation.value)) return { location, problem: `${operation.key} must be a stringValue` };
  if (!("stringValue" in payload.value)) return { location, problem: `${payload.key} must be a stringValue holding JSON` };
  return { location, operation: operation.value.stringValue, payload: payload.value.stringValue };
}

/** Every span's carrier, in request order, and how many spans were not carriers. */
export function findCarriers(request: TOtlpTracesRequest): TDecodedCarriers {
  const carriers: TCarrier[] = [];
  let ignored = 0;
  request.resourceSpans.forEach((rs, i) => {
    rs.scopeSpans.forEach((ss, j) => {
      ss.spans.forEach((span, k) => {
        const carrier = readCarrier(spanLocation(i, j, k), span.attributes);
        if (carrier) carriers.push(carrier);
        else ignored += 1;
      });
    });
  });
  return { carriers, ignored };
}
