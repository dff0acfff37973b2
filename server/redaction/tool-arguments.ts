// MCP writes store text an agent sends (verdict reasons, assertions, dataset descriptions): their arguments
// pass the organization's redaction rules before the tool runs (docs/operations.md, "Redaction"), as span
// payloads do at ingestion. Identities (ids, keys) are left as sent so the tool still finds what they name.
import type { DbClient } from "../db/client.ts";
import { redactJson } from "./redaction.service.ts";
import { DeepKeep } from "./redactor.ts";

const IDENTITY_KEY = /(?:^id$|Ids?$|_ids?$|Key$|^key$|^limit$|^cursor$)/;
const KEEP_IDENTITIES = new DeepKeep((key) => IDENTITY_KEY.test(key));

/** The arguments with every rule applied (in place), and how many values were masked. */
export async function redactToolArguments<T>(db: DbClient, organizationId: string, args: T): Promise<{ args: T; masked: number }> {
  const { value, counts } = await redactJson(db, organizationId, args, KEEP_IDENTITIES);
  return { args: value, masked: [...counts.values()].reduce((a, b) => a + b, 0) };
}
