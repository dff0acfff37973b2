// OTLP/protobuf ExportTraceServiceRequest → carriers, decoded with protobufjs from our proto/ files.
// Undecodable bytes are a 400 and nothing is stored (docs/api/ingestion.md, "OTLP").
import { decodeExportRequest, type PbExportTraceServiceRequest } from "../../../proto/otlp.ts";
import { readCarrier, type TCarrier, type TDecodedCarriers } from "./carriers.ts";
import { otlpEnvelope } from "./envelope.ts";

const envelope = otlpEnvelope("ExportTraceServiceRequest");

export function decodeOtlpProtobuf(body: Buffer): TDecodedCarriers {
  const request: PbExportTraceServiceRequest = envelope.fromProtobuf(body, decodeExportRequest);
  const carriers: TCarrier[] = [];
  let ignored = 0;
  (request.resourceSpans ?? []).forEach((rs, i) => {
    (rs.scopeSpans ?? []).forEach((ss, j) => {
      (ss.spans ?? []).forEach((span, k) => {
        const views = (span.attributes ?? []).map((a) => ({
          key: a.key ?? "",
          // protobufjs puts proto3 defaults ("") on the prototype; the oneof's virtual field names the member set.
          stringValue: a.value?.value === "stringValue" ? a.value.stringValue : undefined,
        }));
        const carrier = readCarrier(`resourceSpans[${i}].scopeSpans[${j}].spans[${k}]`, views);
        if (carrier) carriers.push(carrier);
        else ignored += 1;
      });
    });
  });
  return { carriers, ignored };
}
