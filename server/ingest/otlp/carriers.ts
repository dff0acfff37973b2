// Carrier spans inside an OTLP ExportTraceServiceRequest (docs/api/ingestion.md,
// "OTLP"): a span carrying `reprise.operation` + `reprise.payload` (or the `bitfab.` pair) holds one
// ingestion payload. Spans without them are ignored; their OTel ids are never read.

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

/** The attribute values we care about, from either encoding, already narrowed to "string or not". */
export interface TAttributeView {
  key: string;
  /** The stringValue, or undefined when the value is of another kind. */
  stringValue: string | undefined;
}

/** Reads one span's carrier attributes; null when the span is not a carrier at all. */
export function readCarrier(location: string, attributes: TAttributeView[]): TCarrier | null {
  let operation: TAttributeView | undefined;
  let payload: TAttributeView | undefined;
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
  if (operation.stringValue === undefined) return { location, problem: `${operation.key} must be a stringValue` };
  if (payload.stringValue === undefined) return { location, problem: `${payload.key} must be a stringValue holding JSON` };
  return { location, operation: operation.stringValue, payload: payload.stringValue };
}
