import { z } from "zod";
import { findTracesToRead } from "../../trace-view/agent-reads.service.ts";
import { zIds } from "../args.ts";
import { renderTracesToRead } from "../render/traces.ts";
import { defineTool } from "../tool.ts";

export const getTracesTool = defineTool({
  name: "get_traces",
  permission: "read",
  aliases: ["read_traces"],
  description:
    "Read 1–10 traces: key, status, environment, duration, tokens, model, label and annotation, root input and output, and every span " +
    "([ID: …], type, duration, tokens, model, input, output, reasoning, content, contexts, errors). scope summary cuts each span to about " +
    "1,500 characters; full gives up to 10,000 per field. Cut fields name the get_span_field call that reads them whole.",
  input: {
    traceIds: zIds(10).describe("Trace ids (1–10)."),
    scope: z.enum(["summary", "full"]).default("summary"),
  },
  readOnly: true,
  run: async ({ traceIds, scope }, { db, auth }) => renderTracesToRead(await findTracesToRead(db, auth.organizationId, traceIds), scope),
});
