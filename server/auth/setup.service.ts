// First run in the browser (docs/operations.md, "First run"): while the database has no organization, the
// server start-up issues a one-time setup code and prints the address of /setup carrying it. Only the
// holder of that code (the person who can read the server's output) may create the first organization, so
// the first visitor of a networked instance cannot take it over. The code lives in this process's memory
// (shared across Next.js bundles through globalThis) and is gone once used or when the process stops.
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Database, DbClient } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { createOrganization, type CreatedOrganization } from "./auth.service.ts";
import * as q from "./auth.queries.ts";
import type { TCompleteSetupInput } from "./auth.schemas.ts";

const KEY = Symbol.for("reprise.setup");
interface SetupState {
  /** The unused code, or null. */
  code: string | null;
  /** Set once an organization is known to exist: from then on no page asks the database again. */
  done: boolean;
}
const holder = globalThis as unknown as { [KEY]?: SetupState };
const state = (): SetupState => (holder[KEY] ??= { code: null, done: false });

/** Whether the database still has no organization (the console then leads to /setup). */
export async function isSetupNeeded(db: DbClient): Promise<boolean> {
  if (state().done) return false;
  if ((await q.countOrganizations(db)) === 0) return true;
  state().done = true;
  state().code = null;
  return false;
}

/** A new random setup code, replacing any earlier one. */
export function issueSetupCode(): string {
  const code = randomBytes(18).toString("base64url");
  state().code = code;
  return code;
}

export function isValidSetupCode(code: string | undefined | null): boolean {
  const current = state().code;
  if (!current || !code) return false;
  const a = Buffer.from(code);
  const b = Buffer.from(current);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Creates the first organization, its owner and first API key, consuming the code. The code is taken
 * before any await, so two submissions racing with one code create one organization; a failed creation
 * (a bad email, say) gives it back.
 */
export async function completeSetup(db: Database, input: TCompleteSetupInput): Promise<CreatedOrganization> {
  if (!(await isSetupNeeded(db))) throw new AppError("not_found", "Reprise is already set up: sign in instead.");
  if (!isValidSetupCode(input.code)) {
    throw new AppError("forbidden", "This setup code is not valid: open the address the server printed when it started (npm start).");
  }
  const code = state().code;
  state().code = null;
  try {
    const created = await createOrganization(db, { name: input.organizationName, email: input.email, password: input.password });
    state().done = true;
    return created;
  } catch (error) {
    if (!state().done && state().code === null) state().code = code;
    throw error;
  }
}
