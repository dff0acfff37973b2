// OTLP/JSON ExportTraceServiceRequest → carriers. The envelope is validated before any carrier is
// processed: anything that is not an ExportTraceServiceRequest (not JSON, resourceSpans not a list,
// entries not objects) is a 400 and nothing is stored (docs/api/ingestion.md, "OTLP").
import { readCarrier, type TAttributeView, type TCarrier, type TDecodedCarriers } from "./carriers.ts";
import { isObject, otlpEnvelope, type Obj } from "./envelope.ts";

const envelope = otlpEnvelope("ExportTraceServiceRequest");

function attributeViews(span: Obj, path: string): TAttributeView[] {
  return envelope.listOf(span, "attributes", "attributes", path).map((a) => {
    const value = a.value;
    const stringValue = isObject(value) ? (value.stringValue ?? value.string_value) : undefined;
    return { key: typeof a.key === "string" ? a.key : "", stringValue: typeof stringValue === "string" ? stringValue : undefined };
  });
}

export function decodeOtlpJson(body: Buffer): TDecodedCarriers {
  const request = envelope.fromJson(body);
  const carriers: TCarrier[] = [];
  let ignored = 0;
  envelope.listOf(request, "resourceSpans", "resource_spans", "").forEach((rs, i) => {
    envelope.listOf(rs, "scopeSpans", "scope_spans", `resourceSpans[${i}].`).forEach((ss, j) => {
      envelope.listOf(ss, "spans", "spans", `resourceSpans[${i}].scopeSpans[${j}].`).forEach((span, k) => {
        const location = `resourceSpans[${i}].scopeSpans[${j}].spans[${k}]`;
        const carrier = readCarrier(location, attributeViews(span, `${location}.`));
        if (carrier) carriers.push(carrier);
        else ignored += 1;
      });
    });
  });
  return { carriers, ignored };
}
