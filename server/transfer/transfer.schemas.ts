// Export and import (docs/operations.md, "Export and import"): the selection of an export (any trace-list
// filter), and the lines of an export file. A file is JSON Lines: one trace per line with its spans nested, and,
// when asked, one line per grader and per dataset. Rows are the database's own columns (snake_case), so an
// import keeps ids, timestamps, labels and completion states exactly.
import { z } from "zod";
import { ZTraceListQuery } from "../traces/traces.schemas.ts";
import { ZUuid } from "../shared/schemas.ts";

export const EXPORT_FORMATS = ["jsonl", "otlp"] as const;
export const INCLUDES = ["graders", "datasets"] as const;
export type TInclude = (typeof INCLUDES)[number];

const zInclude = z
  .string()
  .max(100)
  .transform((s, ctx) => {
    const parts = s.split(",").map((p) => p.trim()).filter(Boolean);
    for (const p of parts) {
      if (!(INCLUDES as readonly string[]).includes(p)) ctx.addIssue({ code: "custom", message: `unknown include "${p}": use graders, datasets` });
    }
    return [...new Set(parts)] as TInclude[];
  });

/** GET /api/sdk/export: the trace list's filters (an unknown one is a 400), the format and what else travels. */
export const ZExportQuery = ZTraceListQuery.omit({ cursor: true, limit: true })
  .extend({ format: z.enum(EXPORT_FORMATS).default("jsonl"), include: zInclude.optional() })
  .strict();
export type TExportQuery = z.output<typeof ZExportQuery>;

/** POST /api/sdk/import's query: whether dataset membership and graders travel too. */
export const ZImportQuery = z.object({ include: zInclude.optional() }).strict();

const row = <S extends z.ZodRawShape>(shape: S) => z.looseObject(shape);
const ZTraceRow = row({ id: ZUuid, source_trace_id: z.string(), status: z.string() });
const ZSpanRow = row({ id: ZUuid, trace_id: ZUuid, raw_span: z.unknown() });
const ZTraceOwned = row({ trace_id: ZUuid });
const ZIdRow = row({ id: ZUuid });

export const ZTraceLine = z
  .object({
    kind: z.literal("trace"),
    trace: ZTraceRow,
    spans: z.array(ZSpanRow).default([]),
    events: z.array(row({ span_id: ZUuid, trace_id: ZUuid, event_key: z.string() })).default([]),
    labels: z.array(ZTraceOwned.extend({ id: ZUuid })).default([]),
    graderLabels: z.array(ZTraceOwned.extend({ id: ZUuid, grader_id: ZUuid })).default([]),
    assertions: z.array(ZTraceOwned.extend({ id: ZUuid })).default([]),
    assertionVersions: z.array(row({ assertion_id: ZUuid, version: z.number().int() })).default([]),
    datasets: z.array(row({ dataset_id: ZUuid })).default([]),
  })
  .superRefine((line, ctx) => {
    const id = line.trace.id;
    for (const key of ["spans", "events", "labels", "graderLabels", "assertions"] as const) {
      line[key].forEach((r, i) => {
        if (r.trace_id !== id) ctx.addIssue({ code: "custom", path: [key, i, "trace_id"], message: `must be the line's trace id ${id}` });
      });
    }
  });
export const ZGraderLine = z.object({ kind: z.literal("grader"), grader: ZIdRow, versions: z.array(row({ version: z.number().int() })).default([]) });
export const ZDatasetLine = z.object({ kind: z.literal("dataset"), dataset: ZIdRow, graders: z.array(row({ grader_id: ZUuid })).default([]) });
export const ZExportLine = z.discriminatedUnion("kind", [ZTraceLine, ZGraderLine, ZDatasetLine]);
export type TTraceLine = z.output<typeof ZTraceLine>;
export type TGraderLine = z.output<typeof ZGraderLine>;
export type TDatasetLine = z.output<typeof ZDatasetLine>;
export type TExportLine = z.output<typeof ZExportLine>;

const ZCount = z.object({ inserted: z.number().int(), existing: z.number().int() });
export const ZImportReport = z.object({
  lines: z.number().int(),
  traces: ZCount,
  spans: ZCount,
  labels: ZCount,
  graderLabels: ZCount,
  assertions: ZCount,
  graders: ZCount,
  datasets: ZCount,
  datasetMembers: ZCount,
});
export type TImportReport = z.output<typeof ZImportReport>;
