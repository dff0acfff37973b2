// REST handlers of /api/sdk/assertionCategories/** (docs/api/assertions.md, "Categories"). Thin.
import { defineRoute } from "../../http/define-route.ts";
import { ZCategoryParams, ZSaveCategoryBody } from "./categories.schemas.ts";
import { deleteAssertionCategory, findAssertionCategories, getAssertionCategory, saveAssertionCategory } from "./categories.service.ts";

export const listCategories = defineRoute({ permission: "read", handler: ({ db, auth }) => findAssertionCategories(db, auth.organizationId) });
export const postCategory = defineRoute({ permission: "curate", body: ZSaveCategoryBody, handler: ({ db, auth, body }) => saveAssertionCategory(db, auth.organizationId, body) });
export const getCategory = defineRoute({ permission: "read", params: ZCategoryParams, handler: ({ db, auth, params }) => getAssertionCategory(db, auth.organizationId, params.id) });
export const deleteCategory = defineRoute({ permission: "curate", params: ZCategoryParams, handler: ({ db, auth, params }) => deleteAssertionCategory(db, auth.organizationId, params.id) });
