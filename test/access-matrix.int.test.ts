// The access matrices (docs/operations.md, "Roles and API key scopes"): every mutation of every surface run as
// every role, and every REST route and MCP tool run with a key of every scope, each cell one call checked against
// the rule table of server/auth/permissions.ts. The lists come from the real registries (the route files and the
// doors, the MCP tool registry, the tRPC router), so a new route, tool or procedure is in the matrix without
// editing this file. Calls carry empty input: the check runs before input is read, so a denied call answers 403
// and an allowed one anything else (usually a 400 for the missing fields).
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKeyForUser } from "../server/auth/auth.service.ts";
import { PERMISSIONS, ROLES, SCOPES, roleRank, type TPermission, type TRole, type TScope } from "../server/auth/permissions.ts";
import { createUser } from "../server/auth/settings/settings.service.ts";
import { DOORS } from "../server/doors.ts";
import type { TDefinedRoute } from "../server/http/define-route.ts";
import { toolRegistry } from "../server/mcp/server.ts";
import { callTool, connectClient, serveMcp } from "../server/mcp/testing/mcp-client.ts";
import { appRouter } from "../server/trpc/root.ts";
import { signedInCaller } from "../server/trpc/testing.ts";
import type { ServedRoutes } from "./http-server.ts";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "./harness.ts";

const root = path.resolve(__dirname, "..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** Permissions that change nothing: a write that declares one of them is a hole. */
const READ_ONLY = new Set<TPermission>(["account", "read", "read-sim-plan", "read-functions"]);
/**
 * Routes without an API key: the catch-all 404, health, the console's tRPC (its procedures are in their own
 * matrix), and the SDK downloads (docs/sdk-downloads.md).
 */
// The single sign-on routes are page navigations of a browser signing in, with no key and no session yet.
const KEYLESS = new Set(["/api/auth/sso/start", "/api/auth/sso/callback", "/api/[[...path]]", "/api/health", "/api/trpc/[trpc]", "/go/[...path]", "/sdk/[...path]", "/sdk"]);
/** tRPC mutations usable without a session: they act on no organization. */
const PUBLIC_MUTATIONS = new Set(["session.signIn", "session.signOut", "setup.complete", "invitation.accept", "passwordReset.use"]);
/** Reads sent as POST, and the MCP transport (its tools are checked one by one in the tool matrix). */
const READS_OVER_POST = new Set(["POST /api/mcp", "DELETE /api/mcp", "POST /mcp", "DELETE /mcp", "POST /api/sdk/whoami", "POST /api/sdk/functions/lookup"]);

interface TRestRoute {
  name: string;
  template: string;
  method: (typeof METHODS)[number];
  handler: TDefinedRoute;
}

/** Every defineRoute handler of app/**\/route.ts and of the doors the server entry serves. */
async function listRestRoutes(): Promise<TRestRoute[]> {
  const files: Array<{ template: string; file: string }> = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const segments = path.relative(path.join(root, "app"), dir).split(path.sep).filter((s) => s && !/^\(.*\)$/.test(s));
        files.push({ template: `/${segments.join("/")}`, file: full });
      }
    }
  };
  walk(path.join(root, "app"));
  const routes: TRestRoute[] = [];
  for (const { template, file } of files) {
    const mod = (await import(file)) as Record<string, (TDefinedRoute & { refusesMethod?: boolean }) | undefined>;
    for (const method of METHODS) {
      const handler = mod[method];
      if (!handler || handler.refusesMethod) continue;
      if (!handler.spec) {
        expect(KEYLESS.has(template), `${method} ${template} is not built with defineRoute, so it declares no permission`).toBe(true);
        continue;
      }
      routes.push({ name: `${method} ${template}`, template, method, handler });
    }
  }
  for (const door of DOORS) {
    for (const method of METHODS) {
      const handler = door.methods[method];
      if (handler) routes.push({ name: `${method} ${door.path}`, template: door.path, method, handler });
    }
  }
  return routes;
}

const paramsOf = (template: string) =>
  Object.fromEntries([...template.matchAll(/\[([A-Za-z]+)\]/g)].map(([, name]) => [name, randomUUID()]));

type TProcedureDef = { _def: { type: string; meta?: { permission?: TPermission } } };
/** Every tRPC procedure by its dotted path, with its kind and the permission it declares. */
const procedures = () => Object.entries(appRouter._def.procedures as Record<string, unknown>).map(([name, p]) => [name, (p as TProcedureDef)._def] as const);

const roleAllows = (role: TRole, permission: TPermission) => roleRank(role) >= roleRank(PERMISSIONS[permission].role);
const scopeAllows = (scope: TScope, permission: TPermission) => (PERMISSIONS[permission].scopes as readonly TScope[]).includes(scope);

describe("access matrices", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let restRoutes: TRestRoute[];
  /** A user of each role with an admin-scope key (the role decides), and owner keys of each scope (the scope decides). */
  const users = {} as Record<TRole, { email: string; userId: string; apiKey: string }>;
  const scopedKeys = {} as Record<TScope, string>;
  let mcp: ServedRoutes;
  const clients = new Map<string, Client>();

  beforeAll(async () => {
    org = await createTestOrg(db(), "Matrix");
    const owner = { organizationId: org.organizationId, userId: org.userId, role: "owner" as const };
    users.owner = { email: org.email, userId: org.userId, apiKey: org.apiKey };
    for (const role of ROLES.filter((r) => r !== "owner")) {
      const email = `${role}-${randomUUID()}@example.com`;
      const user = await createUser(db(), owner, { email, password: "correct horse battery", role });
      users[role] = { email, userId: user.id, apiKey: (await createApiKeyForUser(db(), { ...owner, userId: user.id }, { scope: "admin" })).apiKey };
    }
    for (const scope of SCOPES) scopedKeys[scope] = (await createApiKeyForUser(db(), owner, { name: scope, scope })).apiKey;
    restRoutes = await listRestRoutes();
    mcp = await serveMcp();
  });
  afterAll(async () => {
    for (const client of clients.values()) await client.close();
    await mcp?.close();
  });

  const clientFor = async (apiKey: string) => {
    let client = clients.get(apiKey);
    if (!client) clients.set(apiKey, (client = await connectClient(mcp.url, apiKey)));
    return client;
  };

  it("every write of every surface declares a permission that allows writing", async () => {
    const weak: string[] = [];
    for (const route of restRoutes) {
      if (route.method !== "GET" && READ_ONLY.has(route.handler.spec.permission) && !READS_OVER_POST.has(route.name)) weak.push(route.name);
    }
    for (const tool of new Set([...toolRegistry().byName.values()].map((e) => e.tool))) {
      if (!tool.readOnly && READ_ONLY.has(tool.permission)) weak.push(`tool ${tool.name}`);
      if (!(tool.permission in PERMISSIONS)) weak.push(`tool ${tool.name} (no permission)`);
    }
    for (const [name, def] of procedures()) {
      if (def.type !== "mutation" || PUBLIC_MUTATIONS.has(name)) continue;
      if (!def.meta?.permission || READ_ONLY.has(def.meta.permission)) weak.push(`tRPC ${name}`);
    }
    expect(weak).toEqual([]);
    expect(restRoutes.length).toBeGreaterThan(40);
  });

  const expectCell = (name: string, allowed: boolean, status: number, body: { code?: string } | undefined) => {
    const denied = status === 403 || body?.code === "forbidden";
    expect({ name, denied }).toEqual({ name, denied: !allowed });
  };

  async function callRoute(route: TRestRoute, apiKey: string) {
    const body = route.method === "GET" || route.method === "DELETE" ? undefined : {};
    const res = await call(route.handler, { method: route.method, path: route.template, apiKey, body, params: paramsOf(route.template) });
    return { status: res.status, body: Buffer.isBuffer(res.body) ? undefined : (res.body as { code?: string; requiredRole?: string }) };
  }

  it("REST: every route as every role (keys of scope admin, so the role decides)", async () => {
    for (const route of restRoutes) {
      const permission = route.handler.spec.permission;
      for (const role of ROLES) {
        const res = await callRoute(route, users[role].apiKey);
        expectCell(`${route.name} as ${role}`, roleAllows(role, permission), res.status, res.body);
        if (res.status === 403 && !route.template.includes("otel") && !route.template.startsWith("/v1")) {
          expect(res.body).toMatchObject({ code: "forbidden", requiredRole: PERMISSIONS[permission].role, role });
        }
      }
    }
  });

  it("REST: every route with a key of every scope (an owner's keys, so the scope decides)", async () => {
    for (const route of restRoutes) {
      const permission = route.handler.spec.permission;
      for (const scope of SCOPES) {
        const res = await callRoute(route, scopedKeys[scope]);
        expectCell(`${route.name} with scope ${scope}`, scopeAllows(scope, permission), res.status, res.body);
      }
    }
  });

  const tools = () => [...new Set([...toolRegistry().byName.values()].map((e) => e.tool))];

  it("MCP: every tool as every role and with a key of every scope, through the official client", async () => {
    for (const tool of tools()) {
      for (const role of ROLES) {
        const answer = await callTool(await clientFor(users[role].apiKey), tool.name, {});
        expectCell(`${tool.name} as ${role}`, roleAllows(role, tool.permission), answer.isError && answer.data?.code === "forbidden" ? 403 : 200, answer.data);
      }
      for (const scope of SCOPES) {
        const answer = await callTool(await clientFor(scopedKeys[scope]), tool.name, {});
        expectCell(`${tool.name} with scope ${scope}`, scopeAllows(scope, tool.permission), answer.isError && answer.data?.code === "forbidden" ? 403 : 200, answer.data);
      }
    }
  });

  it("tRPC: every mutation as every role, signed in to the console", async () => {
    for (const role of ROLES) {
      const caller = (await signedInCaller(db(), users[role].email)) as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>;
      for (const [name, def] of procedures()) {
        if (def.type !== "mutation" || PUBLIC_MUTATIONS.has(name)) continue;
        const [routerName, procedureName] = name.split(".");
        const error = await caller[routerName][procedureName]({}).then(
          () => undefined,
          (e: { code?: string; message?: string }) => e,
        );
        const allowed = roleAllows(role, def.meta?.permission ?? "manage-owners");
        expectCell(`${name} as ${role}`, allowed, error?.code === "FORBIDDEN" ? 403 : 200, undefined);
        if (!allowed) expect(error?.message).toContain(`needs the ${PERMISSIONS[def.meta?.permission ?? "manage-owners"].role} role`);
      }
    }
  });
});
