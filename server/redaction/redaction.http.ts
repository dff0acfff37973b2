// /api/sdk/redaction (docs/operations.md, "Redaction"): read the rules and their history, put new rules in
// force (a new version), restore an earlier version.
import { defineRoute } from "../http/define-route.ts";
import { ZRestoreRedactionBody, ZSaveRedactionBody } from "./redaction.schemas.ts";
import { getRedactionSettings, restoreRedactionRules, saveRedactionRules } from "./redaction.service.ts";

export const getRedaction = defineRoute({
  permission: "read",
  handler: ({ db, auth }) => getRedactionSettings(db, auth.organizationId),
});

export const putRedaction = defineRoute({
  permission: "manage-redaction",
  body: ZSaveRedactionBody,
  handler: ({ db, auth, actor, body }) => saveRedactionRules(db, auth, actor, body.rules),
});

export const postRedactionRestore = defineRoute({
  permission: "manage-redaction",
  body: ZRestoreRedactionBody,
  handler: ({ db, auth, actor, body }) => restoreRedactionRules(db, auth, actor, body.version),
});
