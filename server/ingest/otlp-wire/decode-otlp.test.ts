// The one OTLP decoder: the same request sent as OTLP/JSON and as OTLP/protobuf, plain, gzip or deflate,
// decodes to the same typed request; envelope errors are 400s before anything else happens.
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodeExportLogsRequest, encodeExportRequest } from "../../../proto/otlp.ts";
import { AppError } from "../../errors.ts";
import { readBodyDeferred } from "../../http/body.ts";
import { otlpJsonRequest, otlpProtobufRequest, spanIdHex, traceIdHex, type TestSpan } from "../native/testing/otlp-builders.ts";
import { decodeOtlpLogs, decodeOtlpTraces, withOtlpLogs, withOtlpTraces } from "./decode-otlp.ts";

const traceId = traceIdHex();
const rootId = spanIdHex();
const spans: TestSpan[] = [
  {
    traceId, spanId: rootId, name: "root", kind: 2, startMs: 1_700_000_000_123.456, endMs: 1_700_000_001_000,
    attributes: { "reprise.operation": "external_span", text: "héllo", flag: true, count: 42, ratio: 0.5, list: ["a", 1], nested: { k: "v" } },
    events: [{ name: "gen_ai.user.message", timeMs: 1_700_000_000_500, attributes: { content: "hi" } }],
    status: { code: 2, message: "boom" },
  },
  { traceId, spanId: spanIdHex(), parentSpanId: rootId, flags: 0x301, name: "child", startMs: 1_700_000_000_200, attributes: {} },
];

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const post = (body: Buffer, headers: Record<string, string>) => new Request("http://test/v1/traces", { method: "POST", headers, body: new Uint8Array(body) });

describe("decodeOtlpTraces", () => {
  it("decodes the same request to the same typed spans from OTLP/JSON and OTLP/protobuf", () => {
    const fromJson = decodeOtlpTraces("json", json(otlpJsonRequest(spans)));
    const fromProtobuf = decodeOtlpTraces("protobuf", Buffer.from(otlpProtobufRequest(spans)));
    expect(fromProtobuf).toEqual(fromJson);
    const [root, child] = fromJson.resourceSpans[0].scopeSpans[0].spans;
    expect(root).toMatchObject({ traceId, spanId: rootId, parentSpanId: "", kind: 2, startTimeUnixNano: 1_700_000_000_123_456_000n, status: { code: 2, message: "boom" } });
    expect(root.attributes).toContainEqual({ key: "count", value: { intValue: 42 } });
    expect(root.attributes).toContainEqual({ key: "nested", value: { kvlistValue: [{ key: "k", value: { stringValue: "v" } }] } });
    expect(child).toMatchObject({ parentSpanId: rootId, flags: 0x301, events: [], links: [] });
    expect(fromJson.resourceSpans[0].resource).toEqual([{ key: "service.name", value: { stringValue: "test-service" } }]);
  });

  it("reads snake_case names, enum names, upper-case hex and int64 text as the protobuf encoding's values", () => {
    const big = "9007199254740993";
    const snake = {
      resource_spans: [{ scope_spans: [{ spans: [{
        trace_id: traceId.toUpperCase(), span_id: rootId, kind: "SPAN_KIND_CLIENT", start_time_unix_nano: "1700000000000000000",
        attributes: [{ key: "n", value: { int_value: big } }, { key: "b", value: { bytes_value: "AAE=" } }], status: { code: "STATUS_CODE_OK" },
      }] }] }],
    };
    const proto = encodeExportRequest({ resourceSpans: [{ scopeSpans: [{ spans: [{
      traceId: Buffer.from(traceId, "hex"), spanId: Buffer.from(rootId, "hex"), kind: 3, startTimeUnixNano: "1700000000000000000",
      attributes: [{ key: "n", value: { intValue: big } }, { key: "b", value: { bytesValue: Buffer.from([0, 1]) } }], status: { code: 1 },
    }] }] }] });
    const a = decodeOtlpTraces("json", json(snake)).resourceSpans[0].scopeSpans[0].spans[0];
    const b = decodeOtlpTraces("protobuf", Buffer.from(proto)).resourceSpans[0].scopeSpans[0].spans[0];
    expect(a.attributes[0]).toEqual({ key: "n", value: { intValue: big } });
    expect(b.attributes[0]).toEqual({ key: "n", value: { intValue: big } });
    // Bytes stay as each encoding has them (base64 text in JSON); the native door turns both into base64.
    expect({ ...a, attributes: [] }).toEqual({ ...b, attributes: [] });
    expect(a).toMatchObject({ traceId, kind: 3, startTimeUnixNano: 1_700_000_000_000_000_000n, status: { code: 1, message: "" } });
  });

  it("answers 400 for a body that is not an ExportTraceServiceRequest, naming the field", () => {
    const fail = (format: "json" | "protobuf", body: Buffer) => {
      try {
        decodeOtlpTraces(format, body);
      } catch (error) {
        return error as AppError;
      }
      throw new Error("decoded");
    };
    expect(fail("json", Buffer.from(""))).toMatchObject({ code: "invalid_json" });
    expect(fail("json", json({ resourceSpans: {} }))).toMatchObject({ code: "validation_failed", message: expect.stringContaining("resourceSpans must be a list") });
    const badAttributes = { resourceSpans: [{ scopeSpans: [{ spans: [{ attributes: [1] }] }] }] };
    expect(fail("json", json(badAttributes)).message).toContain("resourceSpans[0].scopeSpans[0].spans[0].attributes[0] must be an object");
    expect(fail("protobuf", Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]))).toMatchObject({ code: "validation_failed", message: expect.stringContaining("cannot be decoded") });
  });

  it("inflates gzip and deflate bodies (zlib-wrapped or raw) before decoding, in either encoding", async () => {
    const bodies = { json: json(otlpJsonRequest(spans)), protobuf: Buffer.from(otlpProtobufRequest(spans)) };
    const expected = decodeOtlpTraces("json", bodies.json);
    const compressions: Array<[string, (b: Buffer) => Buffer]> = [["gzip", zlib.gzipSync], ["deflate", zlib.deflateSync], ["deflate", zlib.deflateRawSync]];
    for (const [format, body] of Object.entries(bodies)) {
      for (const [encoding, compress] of compressions) {
        const contentType = format === "json" ? "application/json" : "application/x-protobuf";
        const request = post(compress(body), { "content-type": contentType, "content-encoding": encoding });
        const decoded = await withOtlpTraces(request, await readBodyDeferred(request), async (d) => d);
        expect(decoded.format).toBe(format);
        expect(decoded.request).toEqual(expected);
      }
    }
  });
});

describe("decodeOtlpLogs", () => {
  const spanId = spanIdHex();
  const record = { eventName: "gen_ai.choice", timeUnixNano: "1700000000000000000", traceId, spanId, attributes: [{ key: "gen_ai.system", value: { stringValue: "openai" } }], body: { kvlistValue: { values: [{ key: "index", value: { intValue: "0" } }] } } };

  it("decodes the same log records from OTLP/JSON and OTLP/protobuf", async () => {
    const fromJson = decodeOtlpLogs("json", json({ resourceLogs: [{ scopeLogs: [{ logRecords: [record, { severityText: "INFO" }] }] }] }));
    const protoRecord = { ...record, traceId: Buffer.from(traceId, "hex"), spanId: Buffer.from(spanId, "hex"), body: { kvlistValue: { values: [{ key: "index", value: { intValue: 0 } }] } } };
    const bytes = Buffer.from(encodeExportLogsRequest({ resourceLogs: [{ scopeLogs: [{ logRecords: [protoRecord, { severityText: "INFO" }] }] }] }));
    const request = post(zlib.gzipSync(bytes), { "content-type": "application/x-protobuf", "content-encoding": "gzip" });
    const fromProtobuf = await withOtlpLogs(request, await readBodyDeferred(request), async (d) => d.request);
    expect(fromProtobuf).toEqual(fromJson);
    const [event, plain] = fromJson.resourceLogs[0].scopeLogs[0].logRecords;
    expect(event).toMatchObject({ eventName: "gen_ai.choice", traceId, spanId, timeUnixNano: 1_700_000_000_000_000_000n, body: { kvlistValue: [{ key: "index", value: { intValue: 0 } }] } });
    expect(plain).toMatchObject({ eventName: "", traceId: "", body: undefined });
  });

  it("answers 400 for a body that is not an ExportLogsServiceRequest", () => {
    expect(() => decodeOtlpLogs("json", json({ resourceLogs: [{ scopeLogs: [{ logRecords: "x" }] }] }))).toThrow(/Not an OTLP ExportLogsServiceRequest: resourceLogs\[0\]\.scopeLogs\[0\]\.logRecords must be a list/);
  });
});
