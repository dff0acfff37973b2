// tRPC inputs of the console's trace pages (the REST query schemas parse strings; these take typed values).
import { z } from "zod";
import { ZTraceListQuery } from "../traces/traces.schemas.ts";
import { ZUuid, zText } from "../shared/schemas.ts";

/** The REST list filters, with a typed limit (the REST query parses it from a string) and a smaller page. */
export const ZConsoleTraceListInput = ZTraceListQuery.extend({
  limit: z.number().int().min(1).max(100).default(25),
  /** The console's session link: traces of one session id, exactly. */
  sessionId: zText(10_000).optional(),
  /** Replay traces are left out unless asked for, or unless the kind filter is "replay" (docs/console.md). */
  includeReplays: z.boolean().default(false),
});

/** The labelling queue: the list's filters, without paging (docs/api/console.md "Labelling queue"). */
export const ZTraceQueueInput = ZConsoleTraceListInput.omit({ cursor: true, limit: true });
export type TConsoleTraceListInput = z.output<typeof ZConsoleTraceListInput>;

export const ZTraceIdInput = z.object({ id: ZUuid });
export const ZSpanInput = z.object({ traceId: ZUuid, spanId: ZUuid });

/** The live poll: the traces a page shows (docs/api/console.md, "Live lists and pages"). */
export const ZTraceChangesInput = z.object({ traceIds: z.array(ZUuid).max(100).default([]) });
