// The function-execution trace (docs/api/ingestion.md, "Function execution"): body of POST
// /api/sdk/functions/{functionId}/traces, and of an `internal_trace` carrier, which names the function in
// `functionId` instead of the URL.
import { z } from "zod";
import { ZOptionalString } from "./span-payload.schemas.ts";

export const ZFunctionTracePayload = z.looseObject({
  // A string, or any JSON value that is stored as its JSON text.
  result: z.unknown().optional(),
  source: ZOptionalString,
  inputs: z.looseObject({}).nullish(),
  rawCollector: z.unknown().optional(),
  sdkVersion: ZOptionalString,
});
export type TFunctionTracePayload = z.infer<typeof ZFunctionTracePayload>;

export const ZInternalTracePayload = ZFunctionTracePayload.extend({
  functionId: z.string().min(1, "must name the function"),
});
