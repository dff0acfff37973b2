// Alerts firing and delivering against a real database, the real job queue and a real local webhook receiver:
// every kind measured from the dashboard's aggregates, two evaluators racing fire an episode once, the webhook
// body is signed with the rule's secret, a resolve follows a firing, and a receiver that answers 500 and then
// refuses connections gets the same event again, with backoff, until it is back; a rule's events arrive in order
// even while its firing is retried; a mean-score rule reads the dashboard's score figure (docs/alerts.md).
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createTrace } from "../../../test/factories.ts";
import { newId } from "../../ids.ts";
import { startJobWorker, type JobClient, type JobWorker } from "../../jobs/queue.ts";
import { getAlertRuleRoute, patchAlertRule, postAlertRule } from "./alerts.http.ts";
import { alertQueues } from "./alerts.queue.ts";
import { ZAlertDetailResponse, ZAlertSavedResponse, type TAlertWebhookBody } from "./alerts.schemas.ts";
import { defineAlertQueues, workAlerts } from "./alerts.worker.ts";
import { evaluateAlerts, evaluateRule } from "./evaluate.service.ts";
import { measureRule } from "./measure.ts";
import { scoresChart } from "../dashboard/dashboard.service.ts";
import { upsertGraderLabel } from "../../labels/grader-labels.queries.ts";
import { startWebhookReceiver, type TWebhookReceiver } from "./testing/webhook-receiver.ts";

const OPTIONS = { retryLimit: 4, retryDelaySeconds: 1, pollingIntervalSeconds: 0.5 };
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

async function until<T>(what: string, read: () => Promise<T> | T, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("alerts: evaluation and delivery", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let jobs: JobClient;
  let worker: JobWorker;
  let receiver: TWebhookReceiver;

  beforeAll(async () => {
    org = await createTestOrg(db(), "A");
    other = await createTestOrg(db(), "B");
    await defineAlertQueues(db(), OPTIONS);
    jobs = await alertQueues(db(), OPTIONS);
    worker = await startJobWorker(db(), { maintenanceIntervalSeconds: 1 });
    await workAlerts(db(), worker, OPTIONS);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
  });

  const createRule = async (o: TestOrg, body: Record<string, unknown>) => {
    const res = await call(postAlertRule, { apiKey: o.apiKey, body: { webhookUrl: receiver.url, windowMinutes: 10, ...body } });
    expect(res.status).toBe(201);
    return ZAlertSavedResponse.parse(res.body);
  };
  const detail = async (id: string) => ZAlertDetailResponse.parse((await call(getAlertRuleRoute, { apiKey: org.apiKey, params: { id } })).body);
  const bodies = () => receiver.received.map((r) => JSON.parse(r.body) as TAlertWebhookBody);

  it("measures each kind from the dashboard's aggregates of the window", async () => {
    const fn = `measured-${newId()}`;
    for (let i = 0; i < 4; i++) {
      const startedAt = minutesAgo(2 + i);
      await createTrace(db(), org.organizationId, { traceFunctionKey: fn, status: i === 0 ? "failed" : "completed", startedAt, endedAt: new Date(startedAt.getTime() + 1000 * (i + 1)) });
    }
    // Outside the window: never counted.
    await createTrace(db(), org.organizationId, { traceFunctionKey: fn, status: "failed", startedAt: minutesAgo(60) });
    const errorRate = await createRule(org, { name: "errors", kind: "error_rate", traceFunctionKey: fn, threshold: 0.2, enabled: false });
    const latency = await createRule(org, { name: "latency", kind: "p95_latency", traceFunctionKey: fn, threshold: 5000, enabled: false });
    const rule = (r: typeof errorRate.rule) => ({ ...r, organizationId: org.organizationId });
    expect(await measureRule(db(), rule(errorRate.rule), new Date())).toEqual({ value: 0.25, breached: true });
    const p95 = await measureRule(db(), rule(latency.rule), new Date());
    expect(p95.value).toBeCloseTo(3850, 0);
    expect(p95.breached).toBe(false);
    expect(await measureRule(db(), { ...rule(errorRate.rule), kind: "silence" }, new Date())).toEqual({ value: 4, breached: false });
    expect(await measureRule(db(), { ...rule(errorRate.rule), kind: "pass_rate", threshold: 0.9 }, new Date())).toEqual({ value: null, breached: false });
    expect(await measureRule(db(), { ...rule(errorRate.rule), kind: "cost_per_day", threshold: 0 }, new Date())).toEqual({ value: 0, breached: false });
    // Another organization's rule over the same trace function sees none of these traces.
    expect(await measureRule(db(), { ...rule(errorRate.rule), organizationId: other.organizationId, kind: "silence" }, new Date())).toEqual({ value: 0, breached: true });
  });

  it("fires once for two evaluators racing, delivers a signed body, and resolves once traffic returns", async () => {
    const fn = `quiet-${newId()}`;
    const { rule, secret } = await createRule(org, { name: "quiet function", kind: "silence", traceFunctionKey: fn, windowMinutes: 5 });
    expect(secret).toMatch(/^whsec_/);
    const now = new Date();
    const outcomes = await Promise.all([
      evaluateRule(db(), jobs, org.organizationId, rule.id, now),
      evaluateRule(db(), jobs, org.organizationId, rule.id, now),
      evaluateAlerts(db(), jobs, now),
    ]);
    const fired = outcomes.slice(0, 2).filter((o) => o === "fired").length + outcomes[2].fired;
    expect(fired).toBe(1);
    expect((await detail(rule.id)).events).toHaveLength(1);

    const [firing] = await until("the firing", () => receiver.received.slice(), (r) => r.length >= 1);
    expect(firing!.headers["x-reprise-signature"]).toBe(`sha256=${createHmac("sha256", secret!).update(firing!.body).digest("hex")}`);
    expect(Number(firing!.headers["x-reprise-timestamp"])).toBeGreaterThan(Date.now() / 1000 - 60);
    const body = JSON.parse(firing!.body) as TAlertWebhookBody;
    expect(body).toMatchObject({ event: "firing", episode: 1, value: 0, rule: { id: rule.id, kind: "silence", traceFunctionKey: fn } });
    expect(firing!.headers["x-reprise-event-id"]).toBe(body.eventId);

    // Still silent: no new event.
    expect(await evaluateAlerts(db(), jobs)).toMatchObject({ fired: 0, resolved: 0 });
    await createTrace(db(), org.organizationId, { traceFunctionKey: fn, startedAt: minutesAgo(1) });
    const [a, b] = await Promise.all([evaluateAlerts(db(), jobs), evaluateAlerts(db(), jobs)]);
    expect(a.resolved + b.resolved).toBe(1);
    await until("the resolve", bodies, (r) => r.some((x) => x.rule.id === rule.id && x.event === "resolved"));
    const mine = bodies().filter((x) => x.rule.id === rule.id);
    expect(mine.map((x) => [x.event, x.episode])).toEqual([["firing", 1], ["resolved", 1]]);
    const d = await detail(rule.id);
    expect(d.rule).toMatchObject({ state: "ok", episode: 1 });
    expect(d.deliveries.every((x) => x.status === "delivered" && x.responseCode === 200 && x.attempt === 1)).toBe(true);
    expect(JSON.stringify(d)).not.toContain(secret!);
  });

  it("retries a receiver that answers 500 and then refuses, with backoff, until it is back", async () => {
    const fn = `flaky-${newId()}`;
    await createTrace(db(), org.organizationId, { traceFunctionKey: fn, status: "failed", startedAt: minutesAgo(1) });
    const { rule, secret } = await createRule(org, { name: "errors", kind: "error_rate", traceFunctionKey: fn, threshold: 0.5 });
    const before = receiver.received.length;
    receiver.answer(500);
    expect((await evaluateAlerts(db(), jobs)).fired).toBe(1);
    await until("the first attempt", () => receiver.received.length, (n) => n > before);
    await receiver.down();
    const failures = await until("the refused attempt", async () => (await detail(rule.id)).deliveries, (d) => d.length >= 2);
    receiver.answer(200);
    await receiver.up();
    const log = await until("the delivery", async () => (await detail(rule.id)).deliveries, (d) => d.some((x) => x.status === "delivered"));
    const attempts = [...log].reverse();
    expect(attempts[0]).toMatchObject({ attempt: 1, status: "failed", responseCode: 500 });
    expect(attempts[1]).toMatchObject({ attempt: 2, status: "failed", responseCode: null });
    expect(failures[0]!.error).toBeTruthy();
    expect(attempts.at(-1)).toMatchObject({ status: "delivered", responseCode: 200 });
    // Backoff: each retry waited at least the first delay.
    const times = attempts.map((x) => Date.parse(x.at));
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(900);
    // The same event, signed the same, on every attempt; one firing for the episode.
    const sent = receiver.received.slice(before);
    expect(new Set(sent.map((r) => r.headers["x-reprise-event-id"])).size).toBe(1);
    expect(sent.every((r) => r.headers["x-reprise-signature"] === `sha256=${createHmac("sha256", secret!).update(r.body).digest("hex")}`)).toBe(true);
    expect((await detail(rule.id)).events.map((e) => [e.kind, e.episode])).toEqual([["firing", 1]]);
  });

  it("resolves a firing rule that is disabled, in the same change", async () => {
    const fn = `disabled-${newId()}`;
    const { rule } = await createRule(org, { name: "to disable", kind: "silence", traceFunctionKey: fn, windowMinutes: 5 });
    expect(await evaluateRule(db(), jobs, org.organizationId, rule.id, new Date())).toBe("fired");
    const res = await call(patchAlertRule, { apiKey: org.apiKey, method: "PATCH", params: { id: rule.id }, body: { enabled: false } });
    expect(res.status).toBe(200);
    expect(ZAlertSavedResponse.parse(res.body).rule).toMatchObject({ state: "ok", enabled: false });
    await until("the firing and the resolve", bodies, (r) => r.filter((x) => x.rule.id === rule.id).length >= 2);
    // Both delivery jobs were queued within moments; a rule's events still arrive in order (docs/alerts.md, "Delivery").
    const received = bodies().filter((x) => x.rule.id === rule.id).map((x) => [x.event, x.episode, x.value]);
    expect(received).toEqual([["firing", 1, 0], ["resolved", 1, null]]);
    expect(await evaluateRule(db(), jobs, org.organizationId, rule.id, new Date())).toBeNull();
  });

  it("holds a rule's resolve until its firing, retried, is delivered", async () => {
    const fn = `ordered-${newId()}`;
    const { rule } = await createRule(org, { name: "ordered", kind: "silence", traceFunctionKey: fn, windowMinutes: 5 });
    const mine = () => receiver.received.filter((r) => (JSON.parse(r.body) as TAlertWebhookBody).rule.id === rule.id);
    receiver.answer(500);
    expect(await evaluateRule(db(), jobs, org.organizationId, rule.id, new Date())).toBe("fired");
    await until("the first, failed attempt", mine, (r) => r.length >= 1);
    // The resolve is recorded while the firing waits for its retry.
    await createTrace(db(), org.organizationId, { traceFunctionKey: fn, startedAt: minutesAgo(1) });
    expect(await evaluateRule(db(), jobs, org.organizationId, rule.id, new Date())).toBe("resolved");
    await until("a second failed attempt of the firing", mine, (r) => r.length >= 2);
    receiver.answer(200);
    await until("the resolve", mine, (r) => r.some((x) => (JSON.parse(x.body) as TAlertWebhookBody).event === "resolved"));
    const sent = mine().map((r) => [(JSON.parse(r.body) as TAlertWebhookBody).event, r.status]);
    // Every attempt of the firing, the failed ones and the delivered one, came before the resolve, sent once.
    expect(sent.at(-1)).toEqual(["resolved", 200]);
    expect(sent.slice(0, -1).every(([event]) => event === "firing")).toBe(true);
    expect(sent.at(-2)).toEqual(["firing", 200]);
    expect(sent.filter(([, status]) => status === 500).length).toBeGreaterThanOrEqual(2);
    // Waiting was not an attempt: the resolve's one delivery is its attempt 1.
    const d = await detail(rule.id);
    const resolved = d.events.find((e) => e.kind === "resolved")!;
    expect(d.deliveries.filter((x) => x.eventId === resolved.id).map((x) => [x.attempt, x.status])).toEqual([[1, "delivered"]]);
  });

  it("fires a mean-score rule when a grader's mean score of the window drops below its threshold, and resolves it", async () => {
    const fn = `scored-${newId()}`;
    const graderId = newId();
    await db().prisma.grader.create({
      data: { id: graderId, organizationId: org.organizationId, traceFunctionKey: fn, name: "helpfulness", kind: "llm_judge", status: "active",
        config: { model: "m", instructions: "Rate it.", output: { type: "score", min: 0, max: 10 } } },
    });
    const score = async (value: number, minutes: number) => {
      const t = await createTrace(db(), org.organizationId, { traceFunctionKey: fn, status: "completed", startedAt: minutesAgo(minutes) });
      await upsertGraderLabel(db(), { organizationId: org.organizationId, traceId: t.id, graderId, label: null, score: value, source: "live_grader" });
    };
    await score(2, 2);
    await score(5, 3);
    await score(9, 90); // outside the window
    const { rule } = await createRule(org, { name: "helpfulness", kind: "mean_score", traceFunctionKey: fn, graderId, threshold: 6, windowMinutes: 30 });
    expect(rule.graderId).toBe(graderId);
    const now = new Date();
    // The dashboard's figure for the same range and trace function.
    const chart = await scoresChart(db(), { organizationId: org.organizationId, from: new Date(now.getTime() - 30 * 60_000), to: now, traceFunctionKey: fn, stepSeconds: 30 * 60 });
    const point = chart.find((g) => g.graderId === graderId)!.points.find((p) => p.count > 0)!;
    expect(point).toMatchObject({ count: 2, mean: 3.5 });
    expect(await measureRule(db(), { ...rule, organizationId: org.organizationId }, now)).toEqual({ value: 3.5, breached: true });
    expect(await evaluateRule(db(), jobs, org.organizationId, rule.id, now)).toBe("fired");
    await score(10, 1);
    await score(10, 1);
    expect(await evaluateRule(db(), jobs, org.organizationId, rule.id, new Date())).toBe("resolved");
    await until("the mean-score firing and resolve", bodies, (r) => r.filter((x) => x.rule.id === rule.id).length >= 2);
    const received = bodies().filter((x) => x.rule.id === rule.id);
    expect(received.map((x) => [x.event, x.value])).toEqual([["firing", 3.5], ["resolved", 6.75]]);
    expect(received[0]!.rule).toMatchObject({ kind: "mean_score", graderId, threshold: 6 });
    // Another organization's scores are never in the figure.
    expect(await measureRule(db(), { ...rule, organizationId: other.organizationId }, new Date())).toEqual({ value: null, breached: false });
  });
});
