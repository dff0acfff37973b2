// REST handlers of the label endpoints (docs/api/labels.md). Thin: parse, call the service.
import { defineRoute } from "../http/define-route.ts";
import { saveGraderLabels } from "./grader-label-writes.service.ts";
import { findGraderLabels } from "./grader-labels.service.ts";
import { ZAgentLabelsBody, ZGraderLabelsQuery, ZGraderLabelWritesBody, ZHumanLabelsBody, ZTraceLabelsQuery } from "./labels.schemas.ts";
import { findTraceLabels } from "./trace-labels-read.service.ts";
import { saveAgentLabels, saveHumanLabels } from "./trace-labels.service.ts";

export const postAgentLabels = defineRoute({
  permission: "label",
  body: ZAgentLabelsBody,
  handler: ({ db, auth, actor, body }) => saveAgentLabels(db, auth, actor, body),
});

export const getTraceLabels = defineRoute({
  permission: "read",
  query: ZTraceLabelsQuery,
  handler: ({ db, auth, query }) => findTraceLabels(db, auth.organizationId, query.traceIds),
});

export const postHumanLabels = defineRoute({
  permission: "label",
  body: ZHumanLabelsBody,
  handler: ({ db, auth, actor, body }) => saveHumanLabels(db, auth, actor, body.labels),
});

export const getGraderLabels = defineRoute({
  permission: "read",
  query: ZGraderLabelsQuery,
  handler: ({ db, auth, query }) => findGraderLabels(db, auth.organizationId, query),
});

/** A person's pass/fail, score or category on a grader (docs/api/labels.md, "POST /api/sdk/graderLabels"). */
export const postGraderLabels = defineRoute({
  permission: "label",
  body: ZGraderLabelWritesBody,
  handler: ({ db, auth, body }) => saveGraderLabels(db, { organizationId: auth.organizationId, userId: auth.userId, via: "rest", apiKeyId: auth.apiKeyId }, body.labels),
});
