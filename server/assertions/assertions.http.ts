// REST handlers of the assertion endpoints (docs/api/assertions.md). Thin: parse, call the service.
import { defineRoute } from "../http/define-route.ts";
import { ZArchiveAssertionsBody, ZGetAssertionsQuery, ZSaveAssertionsBody, ZTraceIdParams } from "./assertions.schemas.ts";
import { archiveAssertions, getTraceAssertions, saveAssertions } from "./assertions.service.ts";

export const getAssertions = defineRoute({
  permission: "read",
  params: ZTraceIdParams,
  query: ZGetAssertionsQuery,
  handler: ({ db, auth, params, query }) => getTraceAssertions(db, auth.organizationId, params.traceId, { includeUnapproved: query.includeUnapproved }),
});

export const postAssertions = defineRoute({
  permission: "curate",
  body: ZSaveAssertionsBody,
  handler: ({ db, auth, actor, body }) => saveAssertions(db, auth, actor, body),
});

export const postArchiveAssertions = defineRoute({
  permission: "curate",
  params: ZTraceIdParams,
  body: ZArchiveAssertionsBody,
  handler: ({ db, auth, actor, params, body }) => archiveAssertions(db, auth.organizationId, actor, params.traceId, body.assertionIds),
});
