// REST handlers of the span reads (docs/api/traces.md).
import { defineRoute } from "../http/define-route.ts";
import { ZExternalSpanQuery, ZSpanIdParams, ZSpanSelectorQuery, ZTraceSpanParams } from "./spans.schemas.ts";
import { findSpanBySelector, getExternalSpan, getSpan } from "./spans.service.ts";

/** GET /api/sdk/traces/{traceId}/span?id= | ?name=&occurrence= → {span | null} */
export const getTraceSpanRoute = defineRoute({
  permission: "read",
  params: ZTraceSpanParams,
  query: ZSpanSelectorQuery,
  handler: async ({ db, auth, params, query }) => {
    const selector = query.id !== undefined ? { id: query.id } : { name: query.name!, occurrence: query.occurrence ?? "last" };
    return { span: await findSpanBySelector(db, auth.organizationId, params.traceId, selector) };
  },
});

/** GET /api/sdk/spans/{id} → {span} */
export const getSpanRoute = defineRoute({
  permission: "read",
  params: ZSpanIdParams,
  handler: async ({ db, auth, params }) => ({ span: await getSpan(db, auth.organizationId, params.id) }),
});

/** GET /api/sdk/externalSpans/{id}[?view=replay] → {id, externalTraceId, rawData} */
export const getExternalSpanRoute = defineRoute({
  permission: "read",
  params: ZSpanIdParams,
  query: ZExternalSpanQuery,
  handler: async ({ db, auth, params, query }) => getExternalSpan(db, auth.organizationId, params.id, query.view),
});
