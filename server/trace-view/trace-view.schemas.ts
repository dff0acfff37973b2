// tRPC inputs of the console's trace pages (the REST query schemas parse strings; these take typed values).
import { z } from "zod";
import { ZInstant, ZTraceKind, ZTraceLabelState, ZTraceStatus, ZUuid, zText } from "../traces/traces.schemas.ts";

export const ZConsoleTraceListInput = z.object({
  traceFunctionKey: zText(1000).optional(),
  status: ZTraceStatus.optional(),
  search: zText(1000).optional(),
  labelState: ZTraceLabelState.optional(),
  kind: ZTraceKind.optional(),
  startedFrom: ZInstant.optional(),
  startedTo: ZInstant.optional(),
  cursor: z.string().max(512).optional(),
  limit: z.number().int().min(1).max(100).default(25),
});
export type TConsoleTraceListInput = z.output<typeof ZConsoleTraceListInput>;

export const ZTraceIdInput = z.object({ id: ZUuid });
export const ZSpanInput = z.object({ traceId: ZUuid, spanId: ZUuid });
