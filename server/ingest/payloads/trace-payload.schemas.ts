// The external_trace payload (docs/api/ingestion.md, "Trace completion"): the trace
// completion signal, or with `completed: false` a create/update. `rawTrace` is an alias of
// `externalTrace`; `name`, `workflow_name` and `ingestion_type` may sit at either level.
import { z } from "zod";
import { ZOptionalString } from "./span-payload.schemas.ts";

const MAX_INT4 = 2_147_483_647;

export const ZExternalTrace = z.looseObject({
  id: ZOptionalString,
  started_at: ZOptionalString,
  ended_at: ZOptionalString,
  name: ZOptionalString,
  workflow_name: ZOptionalString,
  ingestion_type: z.unknown().optional(),
  metadata: z.looseObject({}).nullish(),
  contexts: z.array(z.unknown().optional()).nullish(),
  input_source_trace_id: ZOptionalString,
  replay_attempt: z.number().int().min(0).max(MAX_INT4).nullish(),
});

export const ZExternalTracePayload = z
  .looseObject({
    id: ZOptionalString,
    type: ZOptionalString,
    source: ZOptionalString,
    traceFunctionKey: ZOptionalString,
    sdkVersion: ZOptionalString,
    name: ZOptionalString,
    workflow_name: ZOptionalString,
    // Anything else resolves to "captured" (docs/api/ingestion.md, "Trace completion"), so it is never a validation error.
    ingestion_type: z.unknown().optional(),
    sessionId: ZOptionalString,
    completed: z.boolean().nullish(),
    dropped: z.boolean().nullish(),
    expectedSpanCount: z.number().int().min(0).max(MAX_INT4).nullish(),
    testRunId: ZOptionalString,
    experimentId: ZOptionalString,
    externalTrace: ZExternalTrace.nullish(),
    rawTrace: ZExternalTrace.nullish(),
  })
  .superRefine((p, ctx) => {
    if (!(p.externalTrace?.id || p.rawTrace?.id || p.id)) {
      ctx.addIssue({ code: "custom", path: ["externalTrace", "id"], message: "is required (or the top-level id)" });
    }
  });
export type TExternalTracePayload = z.infer<typeof ZExternalTracePayload>;
