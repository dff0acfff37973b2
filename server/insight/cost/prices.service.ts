// The model price table (docs/cost.md, "Prices"): the shipped defaults beside the organization's own prices,
// which are versioned: a change or a deletion writes a new version and keeps the one it replaced, with who
// changed it and when, so any earlier version can be restored.
import { recordAuditEvents } from "../../auth/audit/audit.service.ts";
import type { TAuditActor } from "../../auth/audit/audit.schemas.ts";
import type { Database } from "../../db/client.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { insertPriceVersion, lockCurrentPrice, selectCurrentPrices, selectPriceVersions, type TPriceValues, type TPriceVersionRow } from "./cost.queries.ts";
import type { TPriceEntry, TPriceSave } from "./cost.schemas.ts";
import { DEFAULT_PRICES, DEFAULT_PRICES_COMPILED_ON } from "./default-prices.ts";
import { forgetPrices, toPrice } from "./price-book.ts";
import type { TPrice } from "./pricing.ts";

const samePattern = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function toEntry(price: TPrice, row: TPriceVersionRow | null, overridden: boolean): TPriceEntry {
  return {
    id: price.id,
    source: price.source,
    provider: price.provider,
    modelPattern: price.pattern,
    inputPerMtok: price.inputPerMtok,
    outputPerMtok: price.outputPerMtok,
    cachedInputPerMtok: price.cachedInputPerMtok,
    reasoningPerMtok: price.reasoningPerMtok,
    effectiveFrom: price.effectiveFrom,
    version: row?.version ?? null,
    changedAt: row?.changedAt.toISOString() ?? null,
    changedByUserId: row?.changedByUserId ?? null,
    overridden,
  };
}

/** The organization's prices first, then every default (marked when one of the organization's replaces it). */
export async function findPriceTable(db: Database, organizationId: string) {
  const rows = await selectCurrentPrices(db, organizationId);
  const own = rows.map((row) => toEntry(toPrice(row), row, false));
  const defaults = DEFAULT_PRICES.map((p) => toEntry(p, null, rows.some((r) => samePattern(r.modelPattern, p.pattern))));
  return { defaultsCompiledOn: DEFAULT_PRICES_COMPILED_ON, prices: [...own, ...defaults] };
}

const values = (input: TPriceSave, deleted = false): TPriceValues => ({ ...input, deleted });

/**
 * Saves a price: a new one (no id), or the next version of the organization's price `id`. A second current
 * price with the same pattern and effective date is a conflict (409): change that one instead.
 */
export async function savePrice(db: Database, organizationId: string, actor: TAuditActor, input: TPriceSave): Promise<TPriceEntry> {
  const id = input.id ?? newId();
  const entry = await db.transaction(async (tx) => {
    const current = input.id ? await lockCurrentPrice(tx, organizationId, input.id) : null;
    if (input.id && (!current || current.deleted)) throw notFound(`Price ${input.id}`);
    const others = await selectCurrentPrices(tx, organizationId);
    const clash = others.find((o) => o.id !== id && samePattern(o.modelPattern, input.modelPattern) && o.effectiveFrom === input.effectiveFrom);
    if (clash) throw new AppError("conflict", `price ${clash.id} already prices ${input.modelPattern} from ${input.effectiveFrom}: change it instead`);
    await insertPriceVersion(tx, organizationId, id, (current?.version ?? 0) + 1, values(input), actor.userId, new Date());
    const [row] = (await selectPriceVersions(tx, organizationId, id)) as [TPriceVersionRow];
    await recordAuditEvents(tx, organizationId, actor, [{
      kind: current ? "price.updated" : "price.created", targetType: "price", targetId: id, before: current ? priceAudit(current) : null, after: priceAudit(row),
    }]);
    return toEntry(toPrice(row), row, false);
  });
  forgetPrices(db, organizationId);
  return entry;
}

/** Deletes a price: a new version marked deleted (the earlier ones stay, restorable). */
export async function deletePrice(db: Database, organizationId: string, actor: TAuditActor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await lockCurrentPrice(tx, organizationId, id);
    if (!current || current.deleted) throw notFound(`Price ${id}`);
    await insertPriceVersion(tx, organizationId, id, current.version + 1, { ...current, ...numbers(current), deleted: true }, actor.userId, new Date());
    await recordAuditEvents(tx, organizationId, actor, [{ kind: "price.deleted", targetType: "price", targetId: id, before: priceAudit(current), after: null }]);
  });
  forgetPrices(db, organizationId);
}

/** What the audit log keeps of a price version: its pattern, date, prices and version. */
function priceAudit(row: TPriceVersionRow) {
  return { modelPattern: row.modelPattern, effectiveFrom: row.effectiveFrom, ...numbers(row), version: row.version };
}

function numbers(row: TPriceVersionRow) {
  const p = toPrice(row);
  return { inputPerMtok: p.inputPerMtok, outputPerMtok: p.outputPerMtok, cachedInputPerMtok: p.cachedInputPerMtok, reasoningPerMtok: p.reasoningPerMtok };
}

/** Makes an earlier version current again, as a new version (undo of a change or a deletion). */
export async function restorePriceVersion(db: Database, organizationId: string, actor: TAuditActor, id: string, version: number): Promise<TPriceEntry> {
  const entry = await db.transaction(async (tx) => {
    const current = await lockCurrentPrice(tx, organizationId, id);
    if (!current) throw notFound(`Price ${id}`);
    const versions = await selectPriceVersions(tx, organizationId, id);
    const target = versions.find((v) => v.version === version);
    if (!target || target.deleted) throw notFound(`Version ${version} of price ${id}`);
    const others = await selectCurrentPrices(tx, organizationId);
    const clash = others.find((o) => o.id !== id && samePattern(o.modelPattern, target.modelPattern) && o.effectiveFrom === target.effectiveFrom);
    if (clash) throw new AppError("conflict", `price ${clash.id} now prices ${target.modelPattern} from ${target.effectiveFrom}`);
    await insertPriceVersion(tx, organizationId, id, current.version + 1, { ...target, ...numbers(target), deleted: false }, actor.userId, new Date());
    const [row] = (await selectPriceVersions(tx, organizationId, id)) as [TPriceVersionRow];
    await recordAuditEvents(tx, organizationId, actor, [{
      kind: "price.restored", targetType: "price", targetId: id, before: current.deleted ? null : priceAudit(current), after: { ...priceAudit(row), restoredFrom: version },
    }]);
    return toEntry(toPrice(row), row, false);
  });
  forgetPrices(db, organizationId);
  return entry;
}

/** Every version of one of the organization's prices, newest first. */
export async function findPriceVersions(db: Database, organizationId: string, id: string) {
  const rows = await selectPriceVersions(db, organizationId, id);
  if (rows.length === 0) throw notFound(`Price ${id}`);
  return rows.map((row) => ({
    ...toEntry(toPrice(row), row, false),
    version: row.version,
    deleted: row.deleted,
    supersededAt: row.supersededAt?.toISOString() ?? null,
  }));
}
