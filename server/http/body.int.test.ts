// Request-body rules (docs/api.md, "Common rules": Bodies, Errors), through a real route.
import zlib from "node:zlib";
import { describe, expect, it, beforeAll } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { getWhoami } from "./whoami.http.ts";
import { MAX_BODY_BYTES } from "./body.ts";
import { defineRoute } from "./define-route.ts";
import { z } from "zod";

const echo = defineRoute({
  permission: "account",
  body: z.object({ text: z.string() }),
  handler: async ({ body }) => ({ length: body.text.length, head: body.text.slice(0, 5) }),
});

describe("request bodies", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db());
  });

  const payload = { text: "hello world ".repeat(1000) };

  it.each(["gzip", "x-gzip", "deflate"] as const)("reads a %s body", async (encoding) => {
    const res = await call(echo, { apiKey: org.apiKey, body: payload, encoding });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ length: payload.text.length, head: "hello" });
  });

  it("reads a raw-deflate body (no zlib header)", async () => {
    const body = zlib.deflateRawSync(Buffer.from(JSON.stringify(payload)));
    const res = await call(echo, { apiKey: org.apiKey, body, headers: { "content-encoding": "deflate" } });
    expect(res.status).toBe(200);
  });

  it.each(["zstd", "br", "snappy", "gzip, gzip", "compress"])("answers 415 for Content-Encoding %s", async (enc) => {
    const res = await call(echo, { apiKey: org.apiKey, body: payload, headers: { "content-encoding": enc } });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe("unsupported_media_type");
  });

  it("answers 413 for a small gzip body that expands past the limit, without inflating it", async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(MAX_BODY_BYTES * 4, 0x20), { level: 9 });
    expect(bomb.length).toBeLessThan(64_000);
    const before = process.memoryUsage().arrayBuffers;
    const res = await call(echo, { apiKey: org.apiKey, body: bomb, headers: { "content-encoding": "gzip" } });
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("payload_too_large");
    // The expanded size is 32 MB; reading stops at the 8 MB cap.
    expect(grown).toBeLessThan(MAX_BODY_BYTES * 2);
  });

  it("answers 413 for a raw body of 8,000,001 bytes and accepts 8,000,000", async () => {
    const over = await call(echo, { apiKey: org.apiKey, body: Buffer.alloc(MAX_BODY_BYTES + 1, 0x20) });
    expect(over.status).toBe(413);
    const text = "x".repeat(MAX_BODY_BYTES - '{"text":""}'.length);
    const exact = await call(echo, { apiKey: org.apiKey, body: { text } });
    expect(exact.status).toBe(200);
    expect(exact.body.length).toBe(text.length);
  });

  it("answers 400 for truncated or corrupt gzip", async () => {
    const gz = zlib.gzipSync(Buffer.from(JSON.stringify(payload)));
    const truncated = await call(echo, { apiKey: org.apiKey, body: gz.subarray(0, gz.length - 20), headers: { "content-encoding": "gzip" } });
    expect(truncated.status).toBe(400);
    expect(truncated.body.code).toBe("invalid_body_encoding");
    const corrupt = await call(echo, { apiKey: org.apiKey, body: Buffer.from("definitely not gzip"), headers: { "content-encoding": "gzip" } });
    expect(corrupt.status).toBe(400);
  });

  it("answers 400 with the error body for malformed JSON and schema failures", async () => {
    const bad = await call(echo, { apiKey: org.apiKey, body: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "invalid_json", error: expect.stringContaining("not valid JSON") });
    const wrong = await call(echo, { apiKey: org.apiKey, body: { text: 5 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("validation_failed");
    expect(wrong.body.issues).toEqual([{ path: "text", message: expect.any(String) }]);
  });

  it("applies the same rules to routes that ignore their body", async () => {
    const res = await call(getWhoami, { apiKey: org.apiKey, body: "x", headers: { "content-encoding": "br" } });
    expect(res.status).toBe(415);
  });
});
