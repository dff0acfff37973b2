// Delivering an alert event to its rule's webhook (docs/alerts.md, "Delivery"): a POST of the event's JSON, signed
// with the rule's secret (`X-Reprise-Signature: sha256=<hex HMAC-SHA256 of the body>`), dated
// (`X-Reprise-Timestamp`, seconds) and named (`X-Reprise-Event-Id`, the same on every attempt, so a receiver can
// drop a repeat). Every attempt is logged; a failed one throws, and pg-boss retries it with backoff. A rule's events
// reach its webhook in the order they happened: each waits until the one before it is delivered or given up.
import { createHmac } from "node:crypto";
import type { Database } from "../../db/client.ts";
import { newId } from "../../ids.ts";
import { logger } from "../../logger.ts";
import * as q from "./alerts.queries.ts";
import type { JobClient } from "../../jobs/queue.ts";
import { DELIVERY_QUEUE, type TDeliveryJob } from "./alerts.queue.ts";

const TIMEOUT_MS = 10_000;

export const signAlertBody = (secret: string, body: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

type TAttempt = { ok: true; responseCode: number } | { ok: false; responseCode: number | null; error: string };

async function post(url: string, secret: string, eventId: string, body: string): Promise<TAttempt> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "Reprise-Alerts",
        "x-reprise-event-id": eventId,
        "x-reprise-timestamp": String(Math.floor(Date.now() / 1000)),
        "x-reprise-signature": signAlertBody(secret, body),
      },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.body?.cancel().catch(() => undefined);
    return res.ok ? { ok: true, responseCode: res.status } : { ok: false, responseCode: res.status, error: `the webhook answered ${res.status}` };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return { ok: false, responseCode: null, error: `${error instanceof Error ? error.message : String(error)}${cause}`.slice(0, 500) };
  }
}

/** How long a delivery that waits for an earlier event of its rule waits before it looks again: 1 s, doubled, at most 30 s. */
export const waitSeconds = (waits: number) => Math.min(30, 2 ** waits);

/**
 * One attempt (numbered from 1; `retryLimit` is the job's: its last attempt is number retryLimit + 1). A rule's
 * events go in order (docs/alerts.md, "Delivery"): while an earlier event of the rule is unsettled, this one is not
 * sent and not counted as an attempt; a new job for it is queued to look again later. Throws when the attempt failed,
 * so the job is retried; the last failed attempt settles the event (given up), so the next one may go.
 */
export async function deliverAlertEvent(db: Database, jobs: JobClient, job: TDeliveryJob, attempt: number, retryLimit: number): Promise<"delivered" | "waiting" | "skipped"> {
  const event = await q.selectEventForDelivery(db, job.organizationId, job.eventId);
  if (!event || event.settled) return "skipped"; // gone, or already delivered or given up: nothing to send
  const earlier = await q.selectUnsettledEarlierEvent(db, job.organizationId, event.ruleId, event.episode, event.kind);
  if (earlier !== null) {
    const waits = job.waits ?? 0;
    const data: TDeliveryJob = { organizationId: job.organizationId, eventId: job.eventId, waits: waits + 1 };
    await jobs.insert<TDeliveryJob>(DELIVERY_QUEUE, [{ data, startAfter: new Date(Date.now() + waitSeconds(waits) * 1000) }]);
    return "waiting";
  }
  const body = JSON.stringify(event.body);
  const started = Date.now();
  const result = await post(event.webhookUrl, event.secret, job.eventId, body);
  const at = new Date();
  await q.insertDelivery(db, job.organizationId, event.ruleId, {
    id: newId(),
    eventId: job.eventId,
    attempt,
    status: result.ok ? "delivered" : "failed",
    responseCode: result.responseCode,
    error: result.ok ? null : result.error,
    durationMs: Date.now() - started,
    at,
  });
  if (result.ok || attempt > retryLimit) await q.settleEvent(db, job.organizationId, job.eventId, at);
  if (!result.ok) {
    logger.warn("alert webhook delivery failed", { organizationId: job.organizationId, eventId: job.eventId, attempt, error: result.error });
    throw new Error(result.error);
  }
  return "delivered";
}
