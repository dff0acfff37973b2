// REST handlers of /api/sdk/replay/** (docs/api/replay.md).
//. Thin: parse, call the service.
import { defineRoute } from "../http/define-route.ts";
import { completeReplay } from "./complete/complete.service.ts";
import { ZCompleteBody } from "./complete/complete.schemas.ts";
import { ZStatusBody } from "./status/status.schemas.ts";
import { getSpanTree } from "./span-tree/span-tree.service.ts";
import { ZSpanTreeParams, ZSpanTreeQuery } from "./span-tree/span-tree.schemas.ts";
import { ZStartBody } from "./start/start.schemas.ts";
import { startReplay } from "./start/start.service.ts";
import { getReplayStatus } from "./status/status.service.ts";

export const postReplayStart = defineRoute({
  permission: "replay",
  body: ZStartBody,
  handler: ({ db, auth, body }) => startReplay(db, auth, body),
});

export const postReplayStatus = defineRoute({
  permission: "replay",
  body: ZStatusBody,
  handler: ({ db, auth, body }) => getReplayStatus(db, auth.organizationId, body),
});

export const postReplayComplete = defineRoute({
  permission: "replay",
  body: ZCompleteBody,
  handler: ({ db, auth, body }) => completeReplay(db, auth.organizationId, body),
});

export const getReplaySpanTree = defineRoute({
  permission: "read",
  params: ZSpanTreeParams,
  query: ZSpanTreeQuery,
  handler: ({ db, auth, params, query }) => getSpanTree(db, auth.organizationId, params.externalSpanId, query),
});
