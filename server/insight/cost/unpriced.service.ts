// Spans whose model no price matched (docs/cost.md, "Unpriced spans"): never costed at zero, counted per model
// and listed, each model marked when a price matches it now (a recompute over its range will cost its spans).
import type { Database } from "../../db/client.ts";
import { badRequest } from "../../errors.ts";
import { selectUnpricedModels, selectUnpricedSpans } from "./cost.queries.ts";
import { readPrices } from "./price-book.ts";
import { matchPrice } from "./pricing.ts";

export interface TUnpricedFilter {
  from: Date;
  to: Date;
  model?: string;
  limit: number;
}

export async function findUnpricedSpans(db: Database, organizationId: string, f: TUnpricedFilter) {
  if (!(f.from < f.to)) throw badRequest("from must be before to");
  const [models, spans, prices] = await Promise.all([
    selectUnpricedModels(db, organizationId, f.from, f.to),
    selectUnpricedSpans(db, organizationId, f.from, f.to, f.model, f.limit),
    readPrices(db, organizationId),
  ]);
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    models: models.map((m) => ({ ...m, firstSeen: iso(m.firstSeen), lastSeen: iso(m.lastSeen), matchesNow: matchPrice(prices, m.model, iso(m.lastSeen)) !== null })),
    spans: spans.map((s) => ({ ...s, startedAt: iso(s.startedAt) })),
  };
}
