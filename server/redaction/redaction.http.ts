// /api/sdk/redaction (docs/operations.md, "Redaction"): read the rules and their history, put new rules in
// force (a new version), restore an earlier version.
import { defineRoute } from "../http/define-route.ts";
import { ZRestoreRedactionBody, ZSaveRedactionBody } from "./redaction.schemas.ts";
import { getRedactionSettings, restoreRedactionRules, saveRedactionRules } from "./redaction.service.ts";

export const getRedaction = defineRoute({
  handler: ({ db, auth }) => getRedactionSettings(db, auth.organizationId),
});

export const putRedaction = defineRoute({
  body: ZSaveRedactionBody,
  handler: ({ db, auth, body }) => saveRedactionRules(db, auth, body.rules),
});

export const postRedactionRestore = defineRoute({
  body: ZRestoreRedactionBody,
  handler: ({ db, auth, body }) => restoreRedactionRules(db, auth, body.version),
});
