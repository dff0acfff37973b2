// An LLM-judge grader as the agents describe it (docs/mcp.md, "save_grader"): by id, or by trace function and
// name (updated when one exists, created otherwise), with evaluation focus, pass and fail criteria written into
// the judge's instructions (judge-fields.ts). An omitted field is kept, "" clears it. Rule graders are edited
// elsewhere. The edit is a version like any other (graders.service.ts).
import type { Database } from "../db/client.ts";
import { getEnv } from "../env.ts";
import { AppError, toValidationIssues } from "../errors.ts";
import { ZSaveGraderBody, type TGraderVersion, type TSaveGraderResponse } from "./graders.schemas.ts";
import { findGraderVersions, findGraders, getGrader, saveGrader, type TGraderActor } from "./graders.service.ts";
import { composeInstructions, parseInstructions, type TGraderFields } from "./judge-fields.ts";

export interface TJudgeGraderInput extends TGraderFields {
  graderId?: string;
  traceFunctionKey?: string;
  name?: string;
  status?: "active" | "archived";
  model?: string;
  /** What the judge records beside pass/fail; null: pass/fail only; undefined: the grader's is kept. */
  output?: unknown;
}

export type TJudgeGraderSaved =
  | { ok: false; reason: string }
  | { ok: true; saved: TSaveGraderResponse; fields: TGraderFields; /** The version an update replaced, when it changed anything. */ previous?: TGraderVersion };

export async function saveJudgeGrader(db: Database, organizationId: string, actor: TGraderActor, input: TJudgeGraderInput): Promise<TJudgeGraderSaved> {
  let existing = input.graderId ? await getGrader(db, organizationId, input.graderId) : undefined;
  if (!existing) {
    if (!input.traceFunctionKey || !input.name) return { ok: false, reason: "Give graderId to edit a grader, or traceFunctionKey and name to create or update one." };
    existing = (await findGraders(db, organizationId, input.traceFunctionKey)).find((g) => g.name === input.name!.trim());
  }
  if (existing && existing.kind !== "llm_judge") {
    return { ok: false, reason: `Grader ${existing.name} (${existing.id}) is a rule grader; edit it in the console or with POST /api/sdk/graders.` };
  }
  const config = (existing?.config ?? {}) as { model?: string; instructions?: string; target?: unknown; online?: unknown; output?: unknown };
  // An omitted output keeps the grader's (a person's score range is never dropped by an edit of the text); null or
  // pass/fail clears it.
  const output = input.output === undefined ? config.output : input.output === null || (input.output as { type?: string }).type === "passFail" ? undefined : input.output;
  const fields: TGraderFields = { ...parseInstructions(config.instructions ?? "") };
  for (const f of ["evaluationFocus", "passCriteria", "failCriteria"] as const) if (input[f] !== undefined) fields[f] = input[f];
  const instructions = composeInstructions(fields);
  if (!instructions) return { ok: false, reason: "A grader needs at least one of evaluationFocus, passCriteria or failCriteria." };
  const body = ZSaveGraderBody.safeParse({
    id: existing?.id,
    traceFunctionKey: input.traceFunctionKey ?? existing?.traceFunctionKey,
    name: input.name ?? existing?.name,
    kind: "llm_judge",
    config: { model: input.model ?? config.model ?? getEnv().REPRISE_JUDGE_MODEL, instructions, ...(config.target !== undefined ? { target: config.target } : {}),
      // The online settings are kept: an agent's edit of the judge's text does not change what it grades.
      ...(config.online !== undefined ? { online: config.online } : {}),
      ...(output !== undefined ? { output } : {}) },
    status: input.status,
  });
  if (!body.success) throw invalidArguments(body.error.issues);
  const saved = await saveGrader(db, organizationId, actor, body.data);
  const previous = saved.changed && saved.previousVersion
    ? (await findGraderVersions(db, organizationId, saved.grader.id)).versions.find((v) => v.version === saved.previousVersion)
    : undefined;
  return { ok: true, saved, fields, previous };
}

/** The grader these arguments make is not a valid grader: the same 400 as a bad REST body, naming the arguments. */
function invalidArguments(zodIssues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): AppError {
  const issues = toValidationIssues(zodIssues);
  const first = issues[0];
  return new AppError("validation_failed", `Invalid request arguments: ${first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "invalid"}`, { issues });
}
