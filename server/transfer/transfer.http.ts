// GET /api/sdk/export and POST /api/sdk/import (docs/operations.md, "Export and import"). The export is
// streamed: the next page is read only when the client has taken the last, so the server holds one page.
import { defineRoute } from "../http/define-route.ts";
import { logger } from "../logger.ts";
import { exportLines } from "./export.service.ts";
import { importExport } from "./import.service.ts";
import { ZExportQuery, ZImportQuery } from "./transfer.schemas.ts";

export const getExport = defineRoute({
  query: ZExportQuery,
  handler: async ({ db, auth, query, requestId }) => {
    const { format, include, ...filters } = query;
    const lines = exportLines(db, auth.organizationId, filters, { format, include: include ?? [] });
    const encoder = new TextEncoder();
    // The first page is read before answering, so a filter the database refuses is still an error response.
    const first = await lines.next();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        if (!first.done) controller.enqueue(encoder.encode(`${first.value}\n`));
        else controller.close();
      },
      async pull(controller) {
        try {
          const next = await lines.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(`${next.value}\n`));
        } catch (error) {
          logger.error("export stream failed", { requestId, error: (error as Error).message });
          controller.error(error);
        }
      },
      async cancel() {
        await lines.return(undefined);
      },
    }, { highWaterMark: 1 });
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    return new Response(body, {
      headers: {
        "content-type": format === "otlp" ? "application/x-ndjson; profile=otlp-json" : "application/x-ndjson",
        "content-disposition": `attachment; filename="reprise-export-${stamp}.${format === "otlp" ? "otlp.jsonl" : "jsonl"}"`,
        "x-request-id": requestId,
      },
    });
  },
});

export const postImport = defineRoute({
  body: "raw",
  query: ZImportQuery,
  handler: async ({ db, auth, body, query }) => {
    const text = body.toString("utf8");
    const source = async function* () {
      yield* text.split("\n");
    };
    return { report: await importExport(db, auth.organizationId, source, query.include ?? []) };
  },
});
