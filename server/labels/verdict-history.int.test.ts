// A trace's verdict history (docs/graders.md, "Verdict history"): who decided what and when, newest first, with
// replaced and withdrawn verdicts kept and marked; through the console's procedures and the REST writes.
import { beforeAll, describe, expect, it } from "vitest";
import { createTrace } from "../../test/factories.ts";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { postAssertions } from "../assertions/assertions.http.ts";
import { signedInCaller } from "../trpc/testing.ts";
import { postAgentLabels } from "./labels.http.ts";
import { recordTraceVerdict } from "./trace-labels.service.ts";

describe("verdict history", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db(), "Org A");
    other = await createTestOrg(db(), "Org B");
  });

  it("lists every verdict of the trace and its assertions, newest first: who decided, when, reviews, replaced and withdrawn ones", async () => {
    const trace = await createTrace(db(), org.organizationId, { traceFunctionKey: "fn" });
    const person = await signedInCaller(db(), org.email);
    const assertionRes = await call(postAssertions, { apiKey: org.apiKey, body: { updates: [{ traceId: trace.id, assertions: [{ assertion: "Cites the policy" }] }] } });
    expect(assertionRes.status).toBe(200);
    const assertionId: string = assertionRes.body.assertions[0].id;

    const agent = (body: unknown) => call(postAgentLabels, { apiKey: org.apiKey, body, path: "/api/sdk/traces/labels" });
    expect((await agent({ labels: [{ traceId: trace.id, label: false, annotation: "agent thinks it failed" }] })).status).toBe(200);
    await person.labels.review({ traceId: trace.id, assertionId: null, approve: false });
    await person.labels.saveHuman({ traceId: trace.id, assertionId: null, label: true, annotation: "it is fine" });
    await person.labels.saveHuman({ traceId: trace.id, assertionId, label: true, annotation: null });
    await person.labels.clear({ traceId: trace.id, assertionId });
    await db().transaction((tx) => recordTraceVerdict(tx, {
      organizationId: org.organizationId, traceId: trace.id, assertionId: null, labelStatus: "labeled", label: false, annotation: "judge says no",
      confidence: null, labelSource: "judge", approved: false, approvedByUserId: null, authorUserId: null, testRunId: null,
    }));

    const { entries } = await person.labels.history({ traceId: trace.id });
    expect(entries.map((e) => [e.labelSource, e.assertionId === null ? "trace" : "assertion", e.label, e.state])).toEqual([
      ["judge", "trace", false, "current"],
      ["human", "assertion", true, "withdrawn"],
      ["human", "trace", true, "replaced"],
      ["agent", "trace", false, "replaced"],
    ]);
    const [judge, cleared, human, agentVerdict] = entries;
    expect(judge).toMatchObject({ decidedBy: null, annotation: "judge says no", endedAt: null });
    expect(cleared).toMatchObject({ assertion: "Cites the policy", decidedBy: org.email, replacedById: null });
    expect(cleared.endedAt).not.toBeNull();
    expect(human).toMatchObject({ decidedBy: org.email, annotation: "it is fine", replacedById: judge.id });
    expect(agentVerdict).toMatchObject({ decidedBy: org.email, annotation: "agent thinks it failed", review: { state: "rejected", by: org.email }, replacedById: human.id });
    expect(new Date(agentVerdict.decidedAt).getTime()).toBeLessThanOrEqual(new Date(human.decidedAt).getTime());
  });

  it("another organization's trace is NOT_FOUND", async () => {
    const theirs = await createTrace(db(), other.organizationId, { traceFunctionKey: "fn" });
    const person = await signedInCaller(db(), org.email);
    await expect(person.labels.history({ traceId: theirs.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
