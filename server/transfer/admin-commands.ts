// The admin CLI's export and import (docs/operations.md, "Export and import"): `export --org ID --out FILE`
// writes the selection to a file page by page (waiting for the disk, so memory stays one page), `import
// --org ID --file FILE` validates the whole file and then writes it; both with the REST routes' rules.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { once } from "node:events";
import { AdminUsageError, type TAdminCommand, type TAdminFlags } from "../auth/admin-commands.ts";
import type { Database } from "../db/client.ts";
import { notFound } from "../errors.ts";
import { ZUuid } from "../shared/schemas.ts";
import { exportLines } from "./export.service.ts";
import { importExport } from "./import.service.ts";
import { organizationExists } from "./transfer.queries.ts";
import { ZExportQuery, ZImportQuery } from "./transfer.schemas.ts";

/** CLI flag → query parameter of GET /api/sdk/export. */
const FILTER_FLAGS: Record<string, string> = {
  format: "format",
  include: "include",
  "trace-function-key": "traceFunctionKey",
  status: "status",
  search: "search",
  "label-state": "labelState",
  kind: "kind",
  "started-from": "startedFrom",
  "started-to": "startedTo",
};
export const TRANSFER_FLAGS = ["org", "out", "file", ...Object.keys(FILTER_FLAGS)] as const;

function need(flags: TAdminFlags, name: string): string {
  const value = flags[name];
  if (!value) throw new AdminUsageError(`Missing --${name}.`);
  return value;
}

function exportQuery(flags: TAdminFlags) {
  const query = Object.fromEntries(Object.entries(FILTER_FLAGS).flatMap(([flag, key]) => (flags[flag] !== undefined ? [[key, flags[flag]]] : [])));
  return ZExportQuery.parse(query);
}

async function orgOf(db: Database, flags: TAdminFlags): Promise<string> {
  const id = ZUuid.parse(need(flags, "org"));
  if (!(await organizationExists(db, id))) throw notFound(`Organization ${id}`);
  return id;
}

const exportCommand: TAdminCommand = {
  check: (flags) => {
    ZUuid.parse(need(flags, "org"));
    need(flags, "out");
    exportQuery(flags);
  },
  run: async (db, flags) => {
    const organizationId = await orgOf(db, flags);
    const { format, include, ...filters } = exportQuery(flags);
    const file = path.resolve(need(flags, "out"));
    const out = fs.createWriteStream(file);
    let lines = 0;
    try {
      for await (const line of exportLines(db, organizationId, filters, { format, include: include ?? [] })) {
        lines++;
        if (!out.write(`${line}\n`)) await once(out, "drain");
      }
    } finally {
      out.end();
      await once(out, "close");
    }
    return { file, format, lines, bytes: fs.statSync(file).size };
  },
};

const importCommand: TAdminCommand = {
  check: (flags) => {
    ZUuid.parse(need(flags, "org"));
    need(flags, "file");
    ZImportQuery.parse(flags.include ? { include: flags.include } : {});
  },
  run: async (db, flags) => {
    const organizationId = await orgOf(db, flags);
    const file = path.resolve(need(flags, "file"));
    if (!fs.existsSync(file)) throw new AdminUsageError(`No file at ${file}.`);
    const { include } = ZImportQuery.parse(flags.include ? { include: flags.include } : {});
    const source = () => readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
    return { file, report: await importExport(db, organizationId, source, include ?? []) };
  },
};

export const TRANSFER_COMMANDS: Record<string, TAdminCommand> = { export: exportCommand, import: importCommand };
