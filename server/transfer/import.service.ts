// Import (docs/operations.md, "Export and import"): an export file written into the caller's organization,
// keeping ids, timestamps, labels and completion states. Guarantee: the whole file is validated before
// anything is written (a malformed line is a 400 naming it, nothing written); then the traces are written in
// chunks of IMPORT_CHUNK_LINES lines, one transaction each. A row that exists is never replaced, so importing
// twice changes nothing and an import that stopped (the database refused a value) can be run again as it is.
import type { Database } from "../db/client.ts";
import { AppError, toValidationIssues } from "../errors.ts";
import { insertRows, type TImportTable } from "./import.queries.ts";
import { ZExportLine, type TExportLine, type TImportReport, type TInclude } from "./transfer.schemas.ts";

export const IMPORT_CHUNK_LINES = 100;

/** The file's lines, read afresh on each call (an import reads the file twice: to validate, then to write). */
export type TLineSource = () => AsyncIterable<string>;

type TCounts = TImportReport["traces"];
const zero = (): TCounts => ({ inserted: 0, existing: 0 });

function emptyReport(): TImportReport {
  return { lines: 0, traces: zero(), spans: zero(), labels: zero(), graderLabels: zero(), assertions: zero(), graders: zero(), datasets: zero(), datasetMembers: zero() };
}

function parseLine(text: string, n: number): TExportLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AppError("validation_failed", `line ${n} is not JSON: ${(error as Error).message}`, { issues: [{ path: `line ${n}`, message: "not JSON" }] });
  }
  const parsed = ZExportLine.safeParse(value);
  if (!parsed.success) {
    const issues = toValidationIssues(parsed.error.issues).map((i) => ({ path: `line ${n}${i.path ? `.${i.path}` : ""}`, message: i.message }));
    throw new AppError("validation_failed", `line ${n} is not an export line: ${issues[0]?.path}: ${issues[0]?.message}`, { issues });
  }
  return parsed.data;
}

async function* numbered(source: TLineSource): AsyncGenerator<[number, string]> {
  let n = 0;
  for await (const text of source()) {
    n++;
    if (text.trim() !== "") yield [n, text];
  }
}

/** Validates every line; throws the first malformed one. Returns the number of lines. */
async function validateAll(source: TLineSource): Promise<number> {
  let lines = 0;
  for await (const [n, text] of numbered(source)) {
    parseLine(text, n);
    lines++;
  }
  if (lines === 0) throw new AppError("validation_failed", "the file holds no export lines");
  return lines;
}

export async function importExport(db: Database, organizationId: string, source: TLineSource, include: TInclude[]): Promise<TImportReport> {
  const report = emptyReport();
  report.lines = await validateAll(source);
  const put = async (tx: Parameters<Parameters<Database["transaction"]>[0]>[0], table: TImportTable, rows: Record<string, unknown>[], counts?: TCounts) => {
    const inserted = await insertRows(tx, table, organizationId, rows);
    if (counts) {
      counts.inserted += inserted;
      counts.existing += rows.length - inserted;
    }
  };
  // Definitions first (a dataset's members and graders need it), then the traces, a chunk per transaction.
  if (include.length > 0) {
    await db.transaction(async (tx) => {
      for await (const [, text] of numbered(source)) {
        const line = JSON.parse(text) as TExportLine;
        if (line.kind === "grader" && include.includes("graders")) {
          await put(tx, "graders", [line.grader], report.graders);
          await put(tx, "grader_versions", line.versions);
        } else if (line.kind === "dataset" && include.includes("datasets")) {
          await put(tx, "datasets", [line.dataset], report.datasets);
        }
      }
    });
  }
  let chunk: Array<[number, Extract<TExportLine, { kind: "trace" }>]> = [];
  const flush = async () => {
    if (chunk.length === 0) return;
    const lines = chunk;
    chunk = [];
    try {
      await db.transaction(async (tx) => {
        const all = <K extends keyof (typeof lines)[number][1]>(key: K) => lines.flatMap(([, l]) => l[key] as Record<string, unknown>[]);
        await put(tx, "traces", lines.map(([, l]) => l.trace), report.traces);
        await put(tx, "spans", all("spans"), report.spans);
        await put(tx, "otel_span_events", all("events"));
        await put(tx, "assertions", all("assertions"), report.assertions);
        await put(tx, "assertion_versions", all("assertionVersions"));
        await put(tx, "trace_labels", all("labels"), report.labels);
        await put(tx, "grader_labels", all("graderLabels"), report.graderLabels);
        if (include.includes("datasets")) await put(tx, "dataset_traces", all("datasets"), report.datasetMembers);
      });
    } catch (error) {
      if (!isDataError(error)) throw error;
      throw new AppError("validation_failed", `lines ${lines[0][0]}-${lines[lines.length - 1][0]} could not be stored (${(error as Error).message}); the lines before them were imported, and importing the corrected file again adds only what is missing`);
    }
  };
  for await (const [n, text] of numbered(source)) {
    const line = JSON.parse(text) as TExportLine;
    if (line.kind !== "trace") continue;
    chunk.push([n, parseLine(text, n) as Extract<TExportLine, { kind: "trace" }>]);
    if (chunk.length >= IMPORT_CHUNK_LINES) await flush();
  }
  await flush();
  if (include.includes("graders")) await importDatasetGraders(db, organizationId, source, include);
  return report;
}

/** Graders assigned to datasets, once both travelled. */
async function importDatasetGraders(db: Database, organizationId: string, source: TLineSource, include: TInclude[]): Promise<void> {
  if (!include.includes("datasets")) return;
  await db.transaction(async (tx) => {
    for await (const [, text] of numbered(source)) {
      const line = JSON.parse(text) as TExportLine;
      if (line.kind === "dataset") await insertRows(tx, "dataset_graders", organizationId, line.graders);
    }
  });
}

/** A value PostgreSQL refused (SQLSTATE classes 22 and 23), not a database that is away. */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code ?? "";
  return code.startsWith("22") || code.startsWith("23");
}
