// REST handlers of the prompt functions (http-interface.md "POST /api/sdk/functions/lookup"; decisions.md).
import { defineRoute } from "../http/define-route.ts";
import { ZFunctionCreate, ZFunctionLookup } from "./functions.schemas.ts";
import { createFunction, findFunctionByName } from "./functions.service.ts";

/** POST /api/sdk/functions {name, prompt, providers?} → {function, created} */
export const createFunctionRoute = defineRoute({
  body: ZFunctionCreate,
  handler: async ({ db, auth, body }) => createFunction(db, auth.organizationId, body),
});

/** POST /api/sdk/functions/lookup {name} → the function, or {id: null} (200) when nothing matches (wire-facts §8). */
export const lookupFunctionRoute = defineRoute({
  body: ZFunctionLookup,
  handler: async ({ db, auth, body }) => (await findFunctionByName(db, auth.organizationId, body.name)) ?? { id: null },
});
