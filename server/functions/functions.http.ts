// REST handlers of the prompt functions (docs/api/functions.md).
import { defineRoute } from "../http/define-route.ts";
import { ZFunctionCreate, ZFunctionLookup } from "./functions.schemas.ts";
import { createFunction, findFunctionByName } from "./functions.service.ts";

/** POST /api/sdk/functions {name, prompt, providers?} → {function, created} */
export const createFunctionRoute = defineRoute({
  permission: "ingest",
  body: ZFunctionCreate,
  handler: async ({ db, auth, body }) => createFunction(db, auth.organizationId, body),
});

/**
 * POST /api/sdk/functions/lookup {name} → the function, or {id: null} (200) when nothing matches
 * (docs/api/functions.md).
 */
export const lookupFunctionRoute = defineRoute({
  permission: "read-functions",
  body: ZFunctionLookup,
  handler: async ({ db, auth, body }) => (await findFunctionByName(db, auth.organizationId, body.name)) ?? { id: null },
});
