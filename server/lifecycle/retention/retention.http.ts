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
  handler: ({ db, auth }) => getRetention(db, auth.organizationId),
});

/** PUT /api/sdk/settings/retention {retentionDays: whole days ≥ 1 | null} → {retentionDays, changes} */
export const putRetentionRoute = defineRoute({
  body: ZSetRetentionBody,
  handler: ({ db, auth, body }) => {
    // A retention period deletes data: the same permission as a delete.
    assertMayDelete(auth);
    return setRetention(db, auth, body.retentionDays, "rest");
  },
});

/** GET /api/sdk/traces/{traceId}/pin → {traceId, pinned, pinnedAt, pinnedByUserId} */
export const getPinRoute = defineRoute({
  params: ZTraceIdParams,
  handler: ({ db, auth, params }) => getTracePin(db, auth.organizationId, params.traceId),
});

/** PUT /api/sdk/traces/{traceId}/pin {pinned} → {traceId, pinned, pinnedAt, pinnedByUserId} */
export const putPinRoute = defineRoute({
  params: ZTraceIdParams,
  body: ZPinBody,
  handler: ({ db, auth, params, body }) => setTracePin(db, auth, params.traceId, body.pinned),
});
