// REST handlers of the assertion endpoints (http-interface.md, Assertions). Thin: parse, call the service.
import { defineRoute } from "../http/define-route.ts";
import { ZArchiveAssertionsBody, ZSaveAssertionsBody, ZTraceIdParams } from "./assertions.schemas.ts";
import { archiveAssertions, getTraceAssertions, saveAssertions } from "./assertions.service.ts";

export const getAssertions = defineRoute({
  params: ZTraceIdParams,
  handler: ({ db, auth, params }) => getTraceAssertions(db, auth.organizationId, params.traceId),
});

export const postAssertions = defineRoute({
  body: ZSaveAssertionsBody,
  handler: ({ db, auth, body }) => saveAssertions(db, auth, body),
});

export const postArchiveAssertions = defineRoute({
  params: ZTraceIdParams,
  body: ZArchiveAssertionsBody,
  handler: ({ db, auth, params, body }) => archiveAssertions(db, auth.organizationId, params.traceId, body.assertionIds),
});
