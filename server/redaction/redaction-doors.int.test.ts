// Redaction on every door (docs/operations.md, "Redaction"): secrets sent through REST spans, completions,
// function traces and the detached trace update, OTLP carriers, the native OpenTelemetry traces and logs doors and an MCP write are found
// nowhere in the database afterwards: every column of every table that can hold text is searched. Also the
// rules' REST surface: versions, restore, bad patterns refused, and what a rule changed counted on the span.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { raw, sql } from "../db/sql.ts";
import { createFunctionRoute } from "../functions/functions.http.ts";
import { postExternalSpan, postExternalTrace, postFunctionTrace } from "../ingest/ingest.http.ts";
import { postNativeLogs } from "../ingest/native/native-logs.http.ts";
import { postNativeTraces } from "../ingest/native/native.http.ts";
import { anyValueJson, attributesJson, otlpJsonRequest as nativeRequest, spanIdHex, traceIdHex } from "../ingest/native/testing/otlp-builders.ts";
import { postOtlpTraces } from "../ingest/otlp/otlp.http.ts";
import { patchTraceRoute } from "../traces/traces.http.ts";
import { carrierSpanJson, completionPayload, otlpJsonRequest, spanPayload } from "../ingest/testing/payloads.ts";
import { callTool, connectClient, serveMcp } from "../mcp/testing/mcp-client.ts";
import { getRedaction, postRedactionRestore, putRedaction } from "./redaction.http.ts";
import { ZRedactionSettingsResponse } from "./redaction.schemas.ts";

const tag = randomUUID().slice(0, 8);
const SECRETS = {
  email: `leak.${tag}@example.org`,
  key: `sk-live-${tag}abcdefghijklmnopqrst`,
  card: "4242 4242 4242 4242",
  account: `ACCT-${tag}`,
  password: `hunter2-${tag}`,
};
const text = `mail ${SECRETS.email} key ${SECRETS.key} card ${SECRETS.card} account ${SECRETS.account}`;
const RULES = {
  builtins: ["secrets", "emails", "creditCards", "phones"],
  patterns: [{ name: "account", pattern: "ACCT-[0-9a-f]{8}" }],
  fields: ["password", "$.span_data.output.token"],
};

/** Every (schema, table, column) that can hold text, then each searched for each secret. */
async function findSecretsAnywhere(db: ReturnType<ReturnType<typeof useTestDatabase>>): Promise<string[]> {
  const columns = await db.sql.query<{ s: string; t: string; c: string; type: string }>(sql`
    SELECT c.table_schema AS s, c.table_name AS t, c.column_name AS c, c.data_type AS type
    FROM information_schema.columns c
    JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name AND tb.table_type = 'BASE TABLE'
    WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema')
      AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea', 'ARRAY', 'USER-DEFINED')`);
  expect(columns.some((c) => c.t === "spans" && c.c === "raw_span")).toBe(true);
  const found: string[] = [];
  for (const col of columns) {
    const ident = `"${col.s}"."${col.t}"`;
    const value = col.type === "bytea" ? `encode("${col.c}", 'escape')` : `"${col.c}"::text`;
    for (const [name, secret] of Object.entries(SECRETS)) {
      const rows = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${raw(ident)} WHERE strpos(${raw(value)}, ${secret}) > 0`);
      if (rows[0].n > 0) found.push(`${name} in ${col.s}.${col.t}.${col.c}`);
    }
  }
  return found;
}

describe("redaction on every door", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let mcp: Awaited<ReturnType<typeof serveMcp>>;
  beforeAll(async () => {
    org = await createTestOrg(db(), "redacting");
    mcp = await serveMcp();
  });
  afterAll(() => mcp?.close());

  it("refuses rules that are not valid, or would backtrack catastrophically, and changes nothing", async () => {
    for (const pattern of ["(unclosed", "(a+)+$", "(x)\\1"]) {
      const res = await call(putRedaction, { method: "PUT", apiKey: org.apiKey, body: { rules: { patterns: [{ name: "bad", pattern }] } } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(JSON.stringify(res.body.issues)).toContain("rules.patterns.0.pattern");
    }
    const unknown = await call(putRedaction, { method: "PUT", apiKey: org.apiKey, body: { rules: { builtins: ["passports"] } } });
    expect(unknown.status).toBe(400);
    const settings = ZRedactionSettingsResponse.parse((await call(getRedaction, { apiKey: org.apiKey })).body);
    expect(settings).toEqual({ version: 0, rules: { builtins: [], patterns: [], fields: [] }, versions: [] });
  });

  it("keeps every version with its author, and restores one as a new version", async () => {
    const first = await call(putRedaction, { method: "PUT", apiKey: org.apiKey, body: { rules: { builtins: ["emails"] } } });
    expect(first.status).toBe(200);
    const second = await call(putRedaction, { method: "PUT", apiKey: org.apiKey, body: { rules: RULES } });
    expect(ZRedactionSettingsResponse.parse(second.body).version).toBe(2);
    const restored = ZRedactionSettingsResponse.parse((await call(postRedactionRestore, { apiKey: org.apiKey, body: { version: 1 } })).body);
    expect(restored.version).toBe(3);
    expect(restored.rules.builtins).toEqual(["emails"]);
    expect(restored.versions.map((v) => [v.version, v.restoredFrom, v.authorEmail])).toEqual([[3, 1, org.email], [2, null, org.email], [1, null, org.email]]);
    expect((await call(postRedactionRestore, { apiKey: org.apiKey, body: { version: 99 } })).status).toBe(404);
    const other = await createTestOrg(db(), "other");
    expect((await call(postRedactionRestore, { apiKey: other.apiKey, body: { version: 2 } })).status).toBe(404);
    const back = ZRedactionSettingsResponse.parse((await call(postRedactionRestore, { apiKey: org.apiKey, body: { version: 2 } })).body);
    expect(back.rules).toEqual({ ...RULES, patterns: [{ ...RULES.patterns[0], flags: "" }] });
  });

  it("stores none of the secrets sent through any door, and counts what it masked on the span", async () => {
    const api = org.apiKey;
    // REST spans: the same payload also goes through an OTLP carrier, and must be stored alike.
    const restTrace = randomUUID();
    const restSpan = randomUUID();
    const body = (traceId: string, spanId: string) =>
      spanPayload({ traceId, spanId, input: { question: text, password: SECRETS.password }, output: { answer: text, token: SECRETS.password } });
    expect((await call(postExternalSpan, { apiKey: api, body: body(restTrace, restSpan) })).status).toBe(200);
    expect((await call(postExternalTrace, { apiKey: api, body: completionPayload({ traceId: restTrace, externalTrace: { metadata: { user: SECRETS.email, note: text } } }) })).status).toBe(200);
    const carrierTrace = randomUUID();
    const carrierSpan = randomUUID();
    const otlp = otlpJsonRequest([carrierSpanJson({ operation: "external_span", payload: body(carrierTrace, carrierSpan) })]);
    expect((await call(postOtlpTraces, { apiKey: api, body: otlp })).status).toBe(200);
    // The SDK's detached trace update.
    const patched = await call(patchTraceRoute, { method: "PATCH", apiKey: api, params: { traceId: restTrace }, body: { mergeMetadata: { note: text }, appendContexts: [{ who: SECRETS.email }], setName: `for ${SECRETS.email}` } });
    expect(patched.status).toBe(200);
    expect(patched.body.trace.name).toBe("for [REDACTED:email]");
    // Function traces.
    const fn = await call(createFunctionRoute, { apiKey: api, body: { name: `fn-${tag}`, prompt: "Answer {{q}}" } });
    const functionId = fn.body.function.id as string;
    expect((await call(postFunctionTrace, { apiKey: api, params: { functionId }, body: { inputs: { q: text }, result: text } })).status).toBe(200);
    // Native OpenTelemetry: span attributes, resource attributes, and a GenAI event sent as a log record.
    const traceId = traceIdHex();
    const spanId = spanIdHex();
    const now = Date.now();
    const native = nativeRequest(
      [{ traceId, spanId, name: "chat", kind: 3, startMs: now - 500, endMs: now, attributes: { "gen_ai.operation.name": "chat", "app.note": text, "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: text }] }]), password: SECRETS.password } }],
      { "service.name": "svc", "deployment.owner": SECRETS.email },
    );
    expect((await call(postNativeTraces, { apiKey: api, path: "/v1/traces", body: native })).status).toBe(200);
    const logs = { resourceLogs: [{ resource: { attributes: attributesJson({ "service.name": "svc" }) }, scopeLogs: [{ scope: { name: "x" }, logRecords: [
      { timeUnixNano: `${BigInt(now) * 1_000_000n}`, eventName: "gen_ai.user.message", traceId, spanId, attributes: attributesJson({ "gen_ai.system": "openai", note: text }), body: anyValueJson({ content: text }) },
    ] }] }] };
    expect((await call(postNativeLogs, { apiKey: api, path: "/v1/logs", body: logs })).status).toBe(200);
    // An MCP write that stores text: an agent's verdict with its annotation.
    const client = await connectClient(mcp.url, api);
    const saved = await callTool(client, "save_agent_labels", { labels: [{ traceId: restTrace, label: false, annotation: `leaked ${text}` }] });
    expect(saved.isError).toBe(false);
    expect(saved.data).toMatchObject({ redactedValues: 4 });
    await client.close();

    expect(await findSecretsAnywhere(db())).toEqual([]);

    // What was masked is there, marked, and counted per span under the `redaction` step.
    const stored = await db().prisma.span.findMany({ where: { organizationId: org.organizationId }, select: { id: true, rawSpan: true, errors: true, payloadType: true } });
    const byId = new Map(stored.map((s) => [s.id, s]));
    const rest = byId.get(restSpan)!;
    const restInput = (rest.rawSpan as { span_data: { input: unknown; output: unknown } }).span_data;
    expect(restInput.input).toEqual({ question: "mail [REDACTED:email] key [REDACTED:secret] card [REDACTED:credit_card] account [REDACTED:custom:account]", password: "[REDACTED]" });
    expect(restInput.output).toMatchObject({ token: "[REDACTED]" });
    expect(rest.errors).toEqual([{ source: "server", step: "redaction", error: expect.stringMatching(/^masked 10 value\(s\) under redaction rules version 4: credit_card ×2, custom:account ×2, email ×2, field:password ×1, field:token ×1, secret ×2$/) }]);
    const carrier = byId.get(carrierSpan)!;
    expect((carrier.rawSpan as { span_data: unknown }).span_data).toEqual(restInput);
    expect(carrier.errors).toEqual(rest.errors);
    const nativeSpan = stored.find((s) => s.payloadType === "otel")!;
    expect(JSON.stringify(nativeSpan.rawSpan)).toContain("[REDACTED:email]");
    expect(JSON.stringify(nativeSpan.errors)).toContain('"step":"redaction"');
  });

  it("answers 404 on restore for another organization's version and leaves its rules alone", async () => {
    const other = await createTestOrg(db(), "untouched");
    const res = ZRedactionSettingsResponse.parse((await call(getRedaction, { apiKey: other.apiKey })).body);
    expect(res.versions).toEqual([]);
  });
});
