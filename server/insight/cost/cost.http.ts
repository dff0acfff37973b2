// REST handlers of cost (docs/api/cost.md): the model price table, its versions, unpriced spans, recomputes.
import { defineRoute } from "../../http/define-route.ts";
import { json } from "../../http/responses.ts";
import { ZPriceIdParams, ZPriceRestore, ZPriceSave, ZRange, ZUnpricedQuery } from "./cost.schemas.ts";
import { deletePrice, findPriceTable, findPriceVersions, restorePriceVersion, savePrice } from "./prices.service.ts";
import { findRecomputes, getRecompute, startRecompute } from "./recompute.service.ts";
import { findUnpricedSpans } from "./unpriced.service.ts";
import { z } from "zod";
import { ZUuid } from "../../shared/schemas.ts";

/** GET /api/sdk/modelPrices → {defaultsCompiledOn, prices} */
export const listModelPrices = defineRoute({
  permission: "read",
  handler: ({ db, auth }) => findPriceTable(db, auth.organizationId),
});

/** POST /api/sdk/modelPrices {id?, modelPattern, …} → {price}: a new price, or the next version of `id`. */
export const postModelPrice = defineRoute({
  permission: "manage-prices",
  body: ZPriceSave,
  handler: async ({ db, auth, actor, body }) => ({ price: await savePrice(db, auth.organizationId, actor, body) }),
});

/** GET /api/sdk/modelPrices/{id} → {versions} (newest first) */
export const getModelPriceVersions = defineRoute({
  permission: "read",
  params: ZPriceIdParams,
  handler: async ({ db, auth, params }) => ({ versions: await findPriceVersions(db, auth.organizationId, params.id) }),
});

/** DELETE /api/sdk/modelPrices/{id} → {deleted: true} (a new version; the earlier ones stay) */
export const deleteModelPrice = defineRoute({
  permission: "manage-prices",
  params: ZPriceIdParams,
  handler: async ({ db, auth, actor, params }) => {
    await deletePrice(db, auth.organizationId, actor, params.id);
    return { deleted: true };
  },
});

/** POST /api/sdk/modelPrices/{id}/restore {version} → {price} */
export const restoreModelPrice = defineRoute({
  permission: "manage-prices",
  params: ZPriceIdParams,
  body: ZPriceRestore,
  handler: async ({ db, auth, actor, params, body }) => ({ price: await restorePriceVersion(db, auth.organizationId, actor, params.id, body.version) }),
});

/** GET /api/sdk/costs/unpriced?from&to[&model][&limit] → {models, spans} */
export const listUnpricedSpans = defineRoute({
  permission: "read",
  query: ZUnpricedQuery,
  handler: ({ db, auth, query }) => findUnpricedSpans(db, auth.organizationId, query),
});

/** POST /api/sdk/costs/recomputes {from, to} → 202 {recompute} */
export const postRecompute = defineRoute({
  permission: "manage-prices",
  body: ZRange,
  handler: async ({ db, auth, body }) =>
    json({ recompute: await startRecompute(db, auth.organizationId, auth.userId, body.from, body.to) }, { status: 202 }),
});

/** GET /api/sdk/costs/recomputes → {recomputes} (the latest 20) */
export const listRecomputes = defineRoute({
  permission: "read",
  handler: async ({ db, auth }) => ({ recomputes: await findRecomputes(db, auth.organizationId) }),
});

/** GET /api/sdk/costs/recomputes/{id} → {recompute} */
export const getRecomputeRoute = defineRoute({
  permission: "read",
  params: z.object({ id: ZUuid }),
  handler: async ({ db, auth, params }) => ({ recompute: await getRecompute(db, auth.organizationId, params.id) }),
});
