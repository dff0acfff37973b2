// GET /api/sdk/audit: the organization's audit log, newest first, filtered by actor, kind and time
// (docs/operations.md, "Audit log"). Admins only.
import { ZAuditQuery } from "../auth/audit/audit.schemas.ts";
import { findAuditEvents } from "../auth/audit/audit.service.ts";
import { defineRoute } from "./define-route.ts";

export const getAuditEvents = defineRoute({
  permission: "read-audit",
  query: ZAuditQuery,
  handler: ({ db, auth, query }) => findAuditEvents(db, auth.organizationId, query),
});
