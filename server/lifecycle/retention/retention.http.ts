// REST handlers of the retention period and of pins (docs/api.md, "Retention"). Thin: parse, call the service.
import { ZSetRetentionBody } from "../../auth/settings/retention.schemas.ts";
import { getRetention, setRetention } from "../../auth/settings/retention.service.ts";
import { defineRoute } from "../../http/define-route.ts";
import { assertMayDelete } from "../may-delete.ts";
import { ZTraceIdParams } from "../deletion/deletion.schemas.ts";
import { ZPinBody } from "./retention.schemas.ts";
import { getTracePin, setTracePin } from "./retention.service.ts";

/** GET /api/sdk/settings/retention → {retentionDays, changes} */
export const getRetentionRoute = defineRoute({
  permission: "read",
  handler: ({ db, auth }) => getRetention(db, auth.organizationId),
});

/** PUT /api/sdk/settings/retention {retentionDays: whole days ≥ 1 | null} → {retentionDays, changes} */
export const putRetentionRoute = defineRoute({
  permission: "manage-retention",
  body: ZSetRetentionBody,
  handler: ({ db, auth, actor, body }) => {
    // A retention period deletes data: the same permission as a delete.
    assertMayDelete(auth);
    return setRetention(db, auth.organizationId, actor, body.retentionDays);
  },
});

/** GET /api/sdk/traces/{traceId}/pin → {traceId, pinned, pinnedAt, pinnedByUserId} */
export const getPinRoute = defineRoute({
  permission: "read",
  params: ZTraceIdParams,
  handler: ({ db, auth, params }) => getTracePin(db, auth.organizationId, params.traceId),
});

/** PUT /api/sdk/traces/{traceId}/pin {pinned} → {traceId, pinned, pinnedAt, pinnedByUserId} */
export const putPinRoute = defineRoute({
  permission: "curate",
  params: ZTraceIdParams,
  body: ZPinBody,
  handler: ({ db, auth, actor, params, body }) => setTracePin(db, auth, actor, params.traceId, body.pinned),
});
