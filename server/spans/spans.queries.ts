// The only database access of the span reads. Every query filters by organization.
import type { DbClient } from "../db/client.ts";

/**
 * What every span tree view shows without content: position in the tree, timing, tokens, model,
 * errors and markers. The replay outlines and the console waterfall extend it.
 */
export const spanTimingSelect = {
  id: true,
  parentSpanId: true,
  name: true,
  type: true,
  startedAt: true,
  endedAt: true,
  createdAt: true,
  durationMs: true,
  inputTokens: true,
  outputTokens: true,
  cachedTokens: true,
  totalTokens: true,
  model: true,
  costUsd: true,
  error: true,
  errors: true,
  mocked: true,
  contentOffBySimulationPlan: true,
} as const;

export const spanSelect = {
  id: true,
  traceId: true,
  parentSpanId: true,
  name: true,
  type: true,
  functionName: true,
  source: true,
  sdkVersion: true,
  error: true,
  errors: true,
  rawSpan: true,
  contentOffBySimulationPlan: true,
  instrumentation: true,
  spanOriginName: true,
  spanOriginVersion: true,
  startedAt: true,
  endedAt: true,
  isFinal: true,
  durationMs: true,
  inputTokens: true,
  outputTokens: true,
  cachedTokens: true,
  totalTokens: true,
  model: true,
  costUsd: true,
  testRunId: true,
  mocked: true,
  mockSource: true,
} as const;

export type TSpanRow = NonNullable<Awaited<ReturnType<typeof selectSpanById>>>;

export function selectSpanById(db: DbClient, organizationId: string, id: string) {
  return db.prisma.span.findUnique({ where: { organizationId_id: { organizationId, id } }, select: spanSelect });
}

export function selectSpanInTrace(db: DbClient, organizationId: string, traceId: string, id: string) {
  return db.prisma.span.findFirst({ where: { organizationId, traceId, id }, select: spanSelect });
}

/**
 * The `index`-th span of that name in start order (from the end when `fromEnd`). Start ties fall back to
 * arrival and id so the same query always picks the same span.
 */
export function selectSpanByName(db: DbClient, organizationId: string, traceId: string, name: string, index: number, fromEnd: boolean) {
  const dir = fromEnd ? "desc" : "asc";
  return db.prisma.span.findFirst({
    where: { organizationId, traceId, name },
    orderBy: [{ startedAt: { sort: dir, nulls: fromEnd ? "first" : "last" } }, { createdAt: dir }, { id: dir }],
    skip: index,
    select: spanSelect,
  });
}

export function traceExists(db: DbClient, organizationId: string, traceId: string) {
  return db.prisma.trace.findUnique({ where: { organizationId_id: { organizationId, id: traceId } }, select: { id: true } });
}

export function selectRawSpan(db: DbClient, organizationId: string, id: string) {
  return db.prisma.span.findUnique({
    where: { organizationId_id: { organizationId, id } },
    select: { id: true, traceId: true, parentSpanId: true, rawSpan: true },
  });
}
