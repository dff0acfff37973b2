// redaction.* and transfer.* as the console calls them: signed in only, scoped to the caller's organization,
// bad rules refused with the field named, the export read a page at a time up to its count.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { postExternalSpan } from "../../ingest/ingest.http.ts";
import { spanPayload } from "../../ingest/testing/payloads.ts";
import { invalidateRedactionCache } from "../../redaction/redaction.service.ts";
import { createTestCaller, signedInCaller } from "../testing.ts";

describe("redaction and transfer procedures", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db(), "console");
  });

  it("refuses a signed-out caller", async () => {
    const anonymous = await createTestCaller();
    await expect(anonymous.redaction.get()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.transfer.exportCount({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("saves, previews and restores rules; a bad pattern is a BAD_REQUEST naming it and saves nothing", async () => {
    const caller = await signedInCaller(db(), org.email);
    await expect(caller.redaction.save({ rules: { builtins: [], patterns: [{ name: "x", pattern: "(a*)*", flags: "" }], fields: [] } })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await caller.redaction.get()).versions).toEqual([]);
    const saved = await caller.redaction.save({ rules: { builtins: ["emails"], patterns: [], fields: ["password"] } });
    expect(saved.version).toBe(1);
    const preview = await caller.redaction.preview({ rules: saved.rules, sample: '{"to":"a@b.io","password":"x"}' });
    expect(JSON.parse(preview.text)).toEqual({ to: "[REDACTED:email]", password: "[REDACTED]" });
    await caller.redaction.save({ rules: { builtins: [], patterns: [], fields: [] } });
    const restored = await caller.redaction.restore({ version: 1 });
    expect(restored).toMatchObject({ version: 3, rules: { builtins: ["emails"], fields: ["password"] } });
    expect(restored.versions[0]).toMatchObject({ restoredFrom: 1, authorEmail: org.email });
    const other = await createTestOrg(db(), "other console");
    await expect((await signedInCaller(db(), other.email)).redaction.restore({ version: 1 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    // The cache of this process was dropped by the change: the next span is redacted at once.
    const traceId = randomUUID();
    await call(postExternalSpan, { apiKey: org.apiKey, body: spanPayload({ traceId, input: "reach me at c@d.io" }) });
    const span = await db().prisma.span.findFirst({ where: { organizationId: org.organizationId, sourceTraceId: traceId }, select: { rawSpan: true } });
    expect(JSON.stringify(span?.rawSpan)).toContain("[REDACTED:email]");
    invalidateRedactionCache();
  });

  it("reads the export a page at a time, counted, for the caller's organization only", async () => {
    const caller = await signedInCaller(db(), org.email);
    const traces = await caller.transfer.exportCount({});
    expect(traces).toBeGreaterThan(0);
    const page = await caller.transfer.exportPage({});
    expect(page.traces).toBe(traces);
    expect(page.nextCursor).toBeNull();
    expect(JSON.parse(page.lines[0])).toMatchObject({ kind: "trace", trace: { id: expect.any(String) } });
    const other = await createTestOrg(db(), "empty console");
    const theirs = await (await signedInCaller(db(), other.email)).transfer.exportPage({ format: "otlp" });
    expect(theirs).toEqual({ lines: [], traces: 0, nextCursor: null });
  });
});
