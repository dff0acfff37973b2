// save_agent_labels and save_human_labels read once per write (docs/mcp.md, "Results"): the service checks the
// traces and reads back the verdicts in force inside its transaction; the tool and its renderer read nothing.
// The database is the real one, with every Prisma read it serves recorded.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTrace } from "../../test/factories.ts";
import { createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import type { Database, DbClient } from "../db/client.ts";
import { runTool } from "./server.ts";
import type { ToolContext, ToolDefinition } from "./tool.ts";
import { saveAgentLabelsTool } from "./tools/save-agent-labels.ts";
import { saveHumanLabelsTool } from "./tools/save-human-labels.ts";

const READ = /^(find|count|aggregate|groupBy)/;

/** The same database, recording `model.operation` of every Prisma read made through it or its transactions. */
function recordingReads(db: Database): { db: Database; reads: string[] } {
  const reads: string[] = [];
  const prisma = <P extends object>(client: P): P =>
    new Proxy(client, {
      get(target, model, receiver) {
        const delegate = Reflect.get(target, model, receiver);
        if (typeof model !== "string" || model.startsWith("$") || typeof delegate !== "object" || delegate === null) return delegate;
        return new Proxy(delegate, {
          get(d, op) {
            const fn = Reflect.get(d, op);
            if (typeof fn !== "function") return fn;
            return (...args: unknown[]) => {
              if (READ.test(String(op))) reads.push(`${model}.${String(op)}`);
              return fn.apply(d, args);
            };
          },
        });
      },
    });
  const wrapped = new Proxy(db, {
    get(target, key, receiver) {
      if (key === "prisma") return prisma(target.prisma);
      if (key === "transaction") {
        return (fn: (tx: DbClient) => Promise<unknown>, options?: object) => target.transaction((tx) => fn({ prisma: prisma(tx.prisma), sql: tx.sql }), options);
      }
      return Reflect.get(target, key, receiver);
    },
  });
  return { db: wrapped, reads };
}

async function run(tool: ToolDefinition<any>, args: unknown, ctx: ToolContext) {
  return runTool(tool as ToolDefinition, z.object(tool.input).parse(args), ctx);
}

describe("label writes through MCP read once", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let traces: string[];
  const ctx = (database: Database): ToolContext => ({
    db: database,
    auth: { organizationId: org.organizationId, userId: org.userId, apiKeyId: randomUUID(), role: "owner", scope: "admin" },
    apiKey: org.apiKey,
    baseUrl: "http://localhost",
    requestId: "test",
  });

  beforeAll(async () => {
    org = await createTestOrg(db(), "Acme");
    traces = [];
    for (let i = 0; i < 3; i++) traces.push((await createTrace(db(), org.organizationId, { traceFunctionKey: "bot" })).id);
  });

  it("save_agent_labels: one existence check and one read of the current verdicts for the whole batch", async () => {
    const recorded = recordingReads(db());
    const r = await run(saveAgentLabelsTool, {
      labels: [
        { traceId: traces[0], label: false, annotation: "wrong", evidence: null },
        { traceId: traces[1], skip: true, evidence: null },
        { traceId: traces[2], archive: true },
      ],
    }, ctx(recorded.db));
    expect(r.isError).toBeUndefined();
    expect(r.text).toBe([
      "Update complete: set 1 verdict(s), skipped 1, archived 0, 1 had no active label.",
      `- ${traces[0]}: set; effective FAIL`,
      `- ${traces[1]}: skipped; effective skipped`,
      `- ${traces[2]}: no-active-label; effective unlabeled`,
    ].join("\n"));
    expect(recorded.reads.filter((r) => r === "trace.findMany")).toHaveLength(1);
    expect(recorded.reads.filter((r) => r === "traceLabel.findMany")).toHaveLength(1);
  });

  it("save_agent_labels: traces outside the organization are reported without a write or a second read", async () => {
    const stranger = "00000000-0000-4000-8000-000000000001";
    const recorded = recordingReads(db());
    const none = await run(saveAgentLabelsTool, { labels: [{ traceId: stranger, label: true }] }, ctx(recorded.db));
    expect(none).toMatchObject({ isError: true, text: `None of the provided trace IDs belong to this organization: ${stranger}. Nothing was written.` });
    const mixed = await run(saveAgentLabelsTool, { labels: [{ traceId: traces[0], label: true }, { traceId: stranger, label: true }] }, ctx(recorded.db));
    expect(mixed).toMatchObject({
      isError: true,
      text: `Skipped (not in this organization): ${stranger}. Nothing was written: a batch is all or nothing, so call again without them.`,
    });
    expect(recorded.reads).toEqual(["trace.findMany", "trace.findMany"]);
    const after = await run(saveAgentLabelsTool, { labels: [{ traceId: traces[0], skip: true }] }, ctx(db()));
    // The FAIL of the first test is still the verdict that the skip supersedes: the mixed batch wrote nothing.
    expect(after.text).toContain(`- ${traces[0]}: skipped; effective skipped`);
  });

  it("save_human_labels: one existence check and one read of the current verdicts", async () => {
    const recorded = recordingReads(db());
    const r = await run(saveHumanLabelsTool, { labels: traces.map((traceId) => ({ traceId, label: true, annotation: "fine", evidence: null })) }, ctx(recorded.db));
    expect(r.text).toBe(["Update complete: set 3 verdict(s), skipped 0, archived 0.", ...traces.map((t) => `- ${t}: set; effective PASS`)].join("\n"));
    expect(recorded.reads.filter((r) => r === "trace.findMany")).toHaveLength(1);
    expect(recorded.reads.filter((r) => r === "traceLabel.findMany")).toHaveLength(1);
  });
});
