// The prices that cost a span: the shipped defaults and the organization's own (docs/cost.md, "Matching").
// Ingestion reads them once per organization per PRICE_CACHE_MS from this process's cache, so a request costs
// no extra query; a change made on this process clears its entry at once, one made on another instance is seen
// within PRICE_CACHE_MS (a recompute over the range corrects spans written in between).
import type { Database, DbClient } from "../../db/client.ts";
import { selectCurrentPrices, type TPriceVersionRow } from "./cost.queries.ts";
import { DEFAULT_PRICES } from "./default-prices.ts";
import type { TPrice } from "./pricing.ts";

export const PRICE_CACHE_MS = 15_000;

export function toPrice(row: TPriceVersionRow): TPrice {
  const num = (v: string | null) => (v === null ? null : Number(v));
  return {
    id: row.id,
    source: "organization",
    provider: row.provider,
    pattern: row.modelPattern,
    inputPerMtok: Number(row.inputPerMtok),
    outputPerMtok: Number(row.outputPerMtok),
    cachedInputPerMtok: num(row.cachedInputPerMtok),
    reasoningPerMtok: num(row.reasoningPerMtok),
    effectiveFrom: row.effectiveFrom,
  };
}

/** The defaults and the organization's current prices, read now. */
export async function readPrices(db: DbClient, organizationId: string): Promise<TPrice[]> {
  const own = await selectCurrentPrices(db, organizationId);
  return [...DEFAULT_PRICES, ...own.map(toPrice)];
}

type Entry = { at: number; prices: Promise<TPrice[]> };
const caches = new WeakMap<object, Map<string, Entry>>();

function cacheOf(db: Database): Map<string, Entry> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  return cache;
}

/** What ingestion prices spans with: readPrices, cached per organization for PRICE_CACHE_MS. */
export function pricesForIngest(db: Database, organizationId: string): Promise<TPrice[]> {
  const cache = cacheOf(db);
  const now = Date.now();
  const hit = cache.get(organizationId);
  if (hit && now - hit.at < PRICE_CACHE_MS) return hit.prices;
  const prices = readPrices(db, organizationId);
  cache.set(organizationId, { at: now, prices });
  prices.catch(() => cache.delete(organizationId));
  if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
  return prices;
}

/** Forgets the organization's cached prices (after a change). */
export function forgetPrices(db: Database, organizationId: string): void {
  caches.get(db)?.delete(organizationId);
}
