// REST handlers of the trace reads and the detached update (docs/api/traces.md).
import { defineRoute } from "../http/define-route.ts";
import { redactJson } from "../redaction/redaction.service.ts";
import { ZTraceIdParams, ZTraceListQuery, ZTracePatch } from "./traces.schemas.ts";
import { findTraces, getTrace, updateTrace } from "./traces.service.ts";

/** GET /api/sdk/traces/{traceId} → {trace} */
export const getTraceRoute = defineRoute({
  params: ZTraceIdParams,
  handler: async ({ db, auth, params }) => ({ trace: await getTrace(db, auth.organizationId, params.traceId) }),
});

/** GET /api/sdk/traces?traceFunctionKey=&status=&search=&labelState=&kind=&startedFrom=&startedTo=&cursor=&limit= → {traces, nextCursor, hasMore} */
export const listTracesRoute = defineRoute({
  query: ZTraceListQuery,
  handler: async ({ db, auth, query }) => findTraces(db, auth.organizationId, query),
});

/** PATCH /api/sdk/traces/{traceId} {appendContexts?, mergeMetadata?, setSessionId?, setName?} → {trace} */
export const patchTraceRoute = defineRoute({
  params: ZTraceIdParams,
  body: ZTracePatch,
  // Metadata and contexts are stored payloads: NUL and unpaired surrogates become U+FFFD (docs/api/traces.md).
  payloadFields: ["mergeMetadata", "appendContexts"],
  handler: async ({ db, auth, params, body }) => {
    // An SDK's write of trace content like any other door: the redaction rules apply (docs/operations.md, "Redaction").
    const { value } = await redactJson(db, auth.organizationId, body);
    return { trace: await updateTrace(db, auth.organizationId, params.traceId, value) };
  },
});
