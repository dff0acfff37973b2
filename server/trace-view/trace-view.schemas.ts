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

/** A window of a trace's waterfall rows in tree order (docs/api/console.md, "Trace page"). */
export const ZWaterfallInput = z.object({
  traceId: ZUuid,
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(1000).default(500),
});

/** A search of one trace's spans by name or type (docs/api/console.md, "Trace page"). */
export const ZWaterfallSearchInput = z.object({
  traceId: ZUuid,
  text: zText(200).trim().min(1),
  limit: z.number().int().min(1).max(100).default(50),
});

/** The live poll: the traces a page shows (docs/api/console.md, "Live lists and pages"). */
export const ZTraceChangesInput = z.object({ traceIds: z.array(ZUuid).max(100).default([]) });
