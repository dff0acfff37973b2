// Every route of the route tree (app/**/route.ts, listed from the files, so a new route is covered without
// editing this test) and every door the server entry serves (server/doors.ts) against a catalogue of bad inputs: each must answer a JSON 4xx and write nothing
// (docs/api.md, "Errors" and "Text and nesting rules"). Route handlers are called in-process.
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { raw, sql } from "../server/db/sql.ts";
import { signIn } from "../server/auth/sessions/sessions.service.ts";
import { SignInLimiter } from "../server/auth/sessions/sign-in-limiter.ts";
import type { RouteSpec } from "../server/http/define-route.ts";
import { routeMethods } from "../server/http/methods.http.ts";
import { DOORS } from "../server/doors.ts";
import { MAX_INPUT_DEPTH } from "../server/shared/input-text.ts";
import { toAppError } from "../server/http/responses.ts";
import { spanPayload } from "../server/ingest/testing/payloads.ts";
import * as listDatasetsRoute from "../app/api/sdk/datasets/route.ts";
import * as externalSpansRoute from "../app/api/sdk/externalSpans/route.ts";
import { postNativeTraces } from "../server/ingest/native/native.http.ts";
import { createTestOrg, useTestDatabase } from "./harness.ts";

type Handler = ((request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>) & {
  spec?: RouteSpec;
  refusesMethod?: boolean;
};

const root = path.resolve(__dirname, "..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

type TRouteModule = Record<string, Handler | undefined>;

/** app/**\/route.ts as URL templates ("/api/sdk/datasets/[id]") with their handlers, and the doors with theirs. */
function listRoutes(): Array<{ template: string; load: () => Promise<TRouteModule> }> {
  const out: Array<{ template: string; load: () => Promise<TRouteModule> }> = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const segments = path.relative(path.join(root, "app"), dir).split(path.sep).filter((s) => s && !/^\(.*\)$/.test(s));
        out.push({ template: `/${segments.join("/")}`, load: () => import(full) as Promise<TRouteModule> });
      }
    }
  };
  walk(path.join(root, "app"));
  // A door answers the methods it does not declare as routeMethods does (server/http-server.ts).
  for (const door of DOORS) out.push({ template: door.path, load: async () => routeMethods(door.methods) });
  return out.sort((a, b) => a.template.localeCompare(b.template));
}

const deep = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

interface BadRequest {
  name: string;
  method: string;
  /** Query string without "?". */
  query?: string;
  body?: string | Buffer;
  /** Overrides the path parameters (bad ids). */
  params?: Record<string, string>;
  contentType?: string;
}

const isTrpcGet = (method: string, handler: Handler) => method === "GET" && handler.name === "handleTrpc";

/** The catalogue for one route: what every route must refuse, from what it reads. */
function catalogue(method: string, handler: Handler, paramNames: string[], isMcp: boolean): BadRequest[] {
  const spec = handler.spec;
  const cases: BadRequest[] = [];
  // A defineRoute route without a body spec ignores its body (after the size and encoding checks).
  const hasBody = method !== "GET" && method !== "DELETE" && (spec === undefined || spec.body !== undefined);
  // MCP reads its body raw too, but its messages are no span payloads: the text rules apply to them.
  const ingestion = spec?.body === "deferred" || (spec?.body === "raw" && !isMcp);
  if (hasBody) {
    cases.push(
      { name: "malformed JSON", method, body: '{"name": ' },
      { name: "whitespace JSON", method, body: "  \n " },
      { name: "empty body", method, body: "" },
      { name: "JSON array", method, body: "[]" },
      { name: "JSON string", method, body: '"text"' },
      { name: "JSON number", method, body: "42" },
      { name: "JSON null", method, body: "null" },
      { name: "deep nesting", method, body: `{"metadata": ${deep(5_000)}, "mergeMetadata": ${deep(5_000)}, "appendContexts": [${deep(5_000)}]}` },
      { name: "huge string", method, body: `{"name": "${"x".repeat(9_000_000)}"}` },
      // Bytes that are not UTF-8 are refused on every door, span payloads included (decoding would store U+FFFD).
      { name: "invalid UTF-8 in a field", method, body: Buffer.concat([Buffer.from('{"name": "bad'), Buffer.from([0xff, 0xfe]), Buffer.from('utf8", "traceIds": ["x"]}')]) },
    );
    if (!ingestion) {
      // Span payloads keep their documented handling (NUL becomes U+FFFD, docs/api/ingestion.md).
      cases.push(
        { name: "NUL in a field", method, body: '{"name": "a\\u0000b", "traceIds": ["\\u0000"]}' },
        { name: "lone surrogate in a field", method, body: '{"name": "\\ud800", "annotation": "\\udc00x"}' },
        { name: "NUL in a key", method, body: '{"a\\u0000": 1}' },
      );
    }
    if (spec?.body && typeof spec.body === "object" && "shape" in spec.body) {
      // Every field of the schema a huge number: a wrong type for text, out of range for numbers.
      const keys = Object.keys((spec.body as { shape: Record<string, unknown> }).shape);
      cases.push({ name: "huge numbers and wrong types", method, body: `{${keys.map((k) => `"${k}": 1e400`).join(", ")}}` });
    }
  }
  if (isTrpcGet(method, handler)) {
    cases.push({ name: "NUL in a tRPC query input", method, query: `input=${encodeURIComponent('{"json":{"traceFunctionKey":"a\u0000"}}')}` });
    cases.push({ name: "deep tRPC query input", method, query: `input=${encodeURIComponent(`{"json":{"traceFunctionKey":${deep(5_000)}}}`)}` });
  }
  if (spec) {
    cases.push({ name: "NUL in a query parameter", method, query: "traceFunctionKey=%00&limit=%00&name=a%00" });
    if (spec.query) cases.push({ name: "huge numbers in the query", method, query: `limit=${"9".repeat(400)}&offset=1e400&cursor=%00` });
  }
  for (const param of paramNames) {
    cases.push({ name: `non-UUID ${param}`, method, params: { [param]: "not-a-uuid" } });
    cases.push({ name: `NUL in ${param}`, method, params: { [param]: "a\u0000b" } });
    cases.push({ name: `'..' as ${param}`, method, params: { [param]: ".." } });
  }
  return cases;
}

describe("every route refuses bad input with a JSON 4xx and writes nothing", () => {
  const getDb = useTestDatabase();
  const routes = listRoutes();

  async function rowCounts(): Promise<Record<string, number>> {
    const db = getDb();
    const tables = await db.sql.query<{ table_name: string }>(
      sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'reprise_migrations' AND table_name NOT LIKE 'pgboss%'`,
    );
    const counts: Record<string, number> = {};
    for (const { table_name } of tables) {
      const [row] = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${raw(`"${table_name}"`)}`);
      counts[table_name] = Number(row?.n ?? 0);
    }
    return counts;
  }

  it("lists the route tree", () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(routes.map((r) => r.template)).toContain("/api/sdk/datasets/[id]");
  });

  it.each(routes.map((r) => [r.template, r] as const))("%s", async (template, route) => {
    const mod = await route.load();
    const db = getDb();
    const org = await createTestOrg(db);
    const session = await signIn(db, new SignInLimiter(), { email: org.email, password: "correct horse battery" }, "127.0.0.1");
    const paramNames = [...template.matchAll(/\[\[?(?:\.\.\.)?(\w+)\]\]?/g)].map((m) => m[1]!);
    const isTrpc = template.startsWith("/api/trpc");
    const isMcp = /\/mcp$/.test(template);
    const before = await rowCounts();
    const failures: string[] = [];

    for (const method of METHODS) {
      const handler = mod[method];
      expect(handler, `${template} exports ${method} (routeMethods answers the others)`).toBeTypeOf("function");
      if (!handler) continue;
      if (handler.refusesMethod) {
        const res = await handler(new Request(`http://reprise.test${template}`, { method }), { params: Promise.resolve({}) });
        const body = await res.json().catch(() => null);
        if (res.status !== 405 || body?.code !== "method_not_allowed" || !res.headers.get("allow")) failures.push(`${method}: ${res.status} ${JSON.stringify(body)}`);
        continue;
      }
      for (const bad of catalogue(method, handler, paramNames, isMcp)) {
        const params: Record<string, string | string[]> = {};
        for (const name of paramNames) params[name] = template.includes(`...${name}]`) ? ["x"] : randomUUID();
        if (isTrpc) params.trpc = method === "GET" ? "datasets.list" : "datasets.save";
        Object.assign(params, bad.params);
        const url = new URL(`http://reprise.test${template.replace(/\[\[?(?:\.\.\.)?(\w+)\]\]?/g, (_, n: string) => encodeURIComponent(String(params[n])))}`);
        if (bad.query) url.search = bad.query;
        const headers: Record<string, string> = {
          authorization: `Bearer ${org.apiKey}`,
          cookie: `reprise_session=${session.token}`,
          origin: "http://reprise.test",
          host: "reprise.test",
          accept: "application/json, text/event-stream",
        };
        let body = bad.body === undefined ? undefined : Buffer.from(bad.body);
        if (body !== undefined) {
          headers["content-type"] = bad.contentType ?? "application/json";
          const wrap = (before: string, inner: Buffer, after: string) => Buffer.concat([Buffer.from(before), inner, Buffer.from(after)]);
          const isObject = body[0] === 0x7b && bad.name !== "malformed JSON";
          if (isTrpc && isObject) body = wrap('{"json": ', body, "}");
          if (isMcp && isObject) body = wrap('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "save_dataset", "arguments": ', body, "}}");
        }
        const response = await handler(new Request(url, { method, headers, body: body === undefined ? undefined : new Uint8Array(body) }), {
          params: Promise.resolve(params),
        });
        const text = Buffer.from(await response.arrayBuffer()).toString("utf8");
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        const isJson = (response.headers.get("content-type") ?? "").includes("json") && parsed !== undefined;
        // MCP answers a tool's refusal as a tool error (200, isError), as the protocol asks.
        const mcpToolError = isMcp && response.status === 200 && JSON.stringify(parsed).includes('"isError":true');
        const ok = isJson && ((response.status >= 400 && response.status < 500) || mcpToolError);
        if (!ok) failures.push(`${method} ${bad.name}: ${response.status} ${text.slice(0, 200)}`);
      }
    }
    expect(failures, template).toEqual([]);
    const after = await rowCounts();
    // Signing in wrote the session row before counting; nothing the catalogue sent may write.
    expect(after, `${template} wrote nothing`).toEqual(before);
  });

  it("refuses bytes that are not UTF-8 with a 400 naming the field, where decoding would have stored U+FFFD", async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    /** `json` with the placeholder BAD replaced by the bytes FF FE (never UTF-8). */
    const withBadBytes = (json: string) => {
      const [before, after] = json.split("BAD");
      return Buffer.concat([Buffer.from(before!), Buffer.from([0xff, 0xfe]), Buffer.from(after!)]);
    };
    const doors: Array<[string, Handler, Buffer, string]> = [
      ["/api/sdk/datasets", listDatasetsRoute.POST as Handler, withBadBytes('{"traceFunctionKey": "answer", "name": "badBADutf8"}'), "name"],
      ["/api/sdk/externalSpans", externalSpansRoute.POST as Handler, withBadBytes(JSON.stringify(spanPayload({ traceId: randomUUID(), output: { text: "BAD" } }))), "rawSpan.span_data.output.text"],
      ["/v1/traces", routeMethods({ POST: postNativeTraces }).POST as Handler, withBadBytes('{"resourceSpans": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "sBAD"}}]}}]}'), "resourceSpans.0.resource.attributes.0.value.stringValue"],
    ];
    const before = await rowCounts();
    for (const [path, handler, body, field] of doors) {
      const res = await handler(new Request(`http://reprise.test${path}`, { method: "POST", headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json" }, body: new Uint8Array(body) }), { params: Promise.resolve({}) });
      const answer = (await res.json()) as { code: string; error: string; issues: Array<{ path: string }> };
      expect(res.status, path).toBe(400);
      expect(answer.code, path).toBe("validation_failed");
      expect(answer.issues[0]?.path, path).toBe(field);
      expect(answer.error, path).toMatch(/UTF-8/);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it("bounds nesting at the documented depth", () => {
    expect(MAX_INPUT_DEPTH).toBe(64);
  });

  it("answers a value the database refuses (SQLSTATE class 22) with a 400", async () => {
    const error = await getDb().sql.query(sql`SELECT 'not-a-uuid'::uuid`).then(() => undefined, (e: unknown) => e);
    expect(error).toBeDefined();
    const appError = toAppError(error, "test");
    expect(appError.httpStatus).toBe(400);
    expect(appError.message).toMatch(/uuid/);
    const prismaError = await getDb().prisma.dataset.findFirst({ where: { id: "not-a-uuid" } }).then(() => undefined, (e: unknown) => e);
    expect(prismaError).toBeDefined();
    expect(toAppError(prismaError, "test").httpStatus).toBe(400);
  });
});
