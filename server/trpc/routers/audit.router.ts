// audit.list: the console's audit log page, thin over audit.service.ts.
import { ZAuditQuery } from "../../auth/audit/audit.schemas.ts";
import { findAuditEvents } from "../../auth/audit/audit.service.ts";
import { allowed, router } from "../init.ts";

export const auditRouter = router({
  list: allowed("read-audit").input(ZAuditQuery).query(({ ctx, input }) => findAuditEvents(ctx.db, ctx.auth.organizationId, input)),
});
