// The generated descriptor must match the .proto files, and the codec must round-trip the OTLP shapes.
import { describe, expect, it } from "vitest";
import { renderDescriptorModule } from "../../../proto/generate.ts";
import fs from "node:fs";
import path from "node:path";
import { PROTO_DIR } from "../../../proto/load-proto-files.ts";
import { decodeExportRequest, decodeExportResponse, decodeStatus, encodeExportRequest, encodeExportResponse, encodeStatus } from "../../../proto/otlp.ts";

describe("OTLP protobuf codec", () => {
  it("uses a descriptor generated from the current .proto files (run `npx tsx proto/generate.ts` after editing them)", () => {
    const committed = fs.readFileSync(path.join(PROTO_DIR, "otlp-descriptor.generated.ts"), "utf8");
    expect(committed).toBe(renderDescriptorModule());
  });

  it("round-trips a carrier span's attributes", () => {
    const bytes = encodeExportRequest({
      resourceSpans: [{ scopeSpans: [{ spans: [{ name: "c", attributes: [{ key: "reprise.payload", value: { stringValue: "{\"a\":1}" } }] }] }] }],
    });
    const decoded = decodeExportRequest(bytes);
    expect(decoded.resourceSpans?.[0]?.scopeSpans?.[0]?.spans?.[0]?.attributes?.[0]).toMatchObject({
      key: "reprise.payload",
      value: { stringValue: "{\"a\":1}" },
    });
  });

  it("throws on bytes that are not an ExportTraceServiceRequest", () => {
    expect(() => decodeExportRequest(Buffer.from("{\"resourceSpans\":[]}"))).toThrow();
  });

  it("encodes full success as an empty message and partial success with its fields", () => {
    expect(encodeExportResponse().length).toBe(0);
    expect(decodeExportResponse(encodeExportResponse({ rejectedSpans: 2, errorMessage: "bad" }))).toEqual({
      partialSuccess: { rejectedSpans: 2, errorMessage: "bad" },
    });
    expect(decodeStatus(encodeStatus(14, "later"))).toEqual({ code: 14, message: "later" });
  });
});
