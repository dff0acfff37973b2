// transfer.*: the console's export download (docs/operations.md, "Export and import"). The browser asks for
// the export a page at a time and shows its progress against the count; the server holds one page per call.
import { z } from "zod";
import { protectedProcedure, router } from "../init.ts";
import { countTraces } from "../../traces/traces.service.ts";
import { ZTraceQueueInput } from "../../trace-view/trace-view.schemas.ts";
import { exportPage } from "../../transfer/export.service.ts";
import { EXPORT_FORMATS, INCLUDES } from "../../transfer/transfer.schemas.ts";

const consoleFilters = <T extends { includeReplays: boolean }>({ includeReplays, ...input }: T) => ({ ...input, searchContent: true, excludeReplays: !includeReplays });

const ZExportInput = ZTraceQueueInput.extend({
  format: z.enum(EXPORT_FORMATS).default("jsonl"),
  include: z.array(z.enum(INCLUDES)).max(INCLUDES.length).default([]),
  cursor: z.string().max(512).nullable().default(null),
});

export const transferRouter = router({
  /** How many traces the export of these filters holds (the progress bar's end). */
  exportCount: protectedProcedure.input(ZTraceQueueInput).query(({ ctx, input }) => countTraces(ctx.db, ctx.auth.organizationId, consoleFilters(input))),
  /** One page of the export's lines and the cursor of the next (null at the end). */
  exportPage: protectedProcedure.input(ZExportInput).query(({ ctx, input }) => {
    const { format, include, cursor, ...filters } = input;
    return exportPage(ctx.db, ctx.auth.organizationId, consoleFilters(filters), { format, include }, cursor);
  }),
});
