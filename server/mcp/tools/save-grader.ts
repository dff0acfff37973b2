import { z } from "zod";
import { getEnv } from "../../env.ts";
import { ZSaveGraderBody } from "../../graders/graders.schemas.ts";
import { findGraderVersions, findGraders, getGrader, saveGrader } from "../../graders/graders.service.ts";
import { parseWith } from "../../http/define-route.ts";
import { zId, zText } from "../args.ts";
import { composeInstructions, parseInstructions, type TGraderFields } from "../grader-fields.ts";
import { graderSavedText } from "../render/graders.ts";
import { defineTool, toolError } from "../tool.ts";

export const saveGraderTool = defineTool({
  name: "save_grader",
  aliases: ["create_grader"],
  description:
    "Create or edit an LLM-judge grader. With graderId it edits that grader; otherwise a grader with the same name on the same trace function is updated, " +
    "or a new one is created. An edit is a new version of the grader attributed to this agent; the previous version is kept and can be reverted. evaluationFocus, passCriteria and failCriteria become the judge's instructions; an omitted field is kept and \"\" clears it. " +
    "model is passed to the configured OpenAI-compatible endpoint (default: the server's judge model).",
  input: {
    graderId: zId.optional(),
    traceFunctionKey: zText(500).min(1).optional(),
    name: zText(200).min(1).optional(),
    evaluationFocus: zText(20_000).optional(),
    passCriteria: zText(20_000).optional(),
    failCriteria: zText(20_000).optional(),
    status: z.enum(["active", "archived"]).optional(),
    model: zText(200).min(1).optional(),
  },
  run: async (args, { db, auth }) => {
    let existing = args.graderId ? await getGrader(db, auth.organizationId, args.graderId) : undefined;
    if (!existing) {
      if (!args.traceFunctionKey || !args.name) return toolError("Give graderId to edit a grader, or traceFunctionKey and name to create or update one.");
      existing = (await findGraders(db, auth.organizationId, args.traceFunctionKey)).find((g) => g.name === args.name!.trim());
    }
    if (existing && existing.kind !== "llm_judge") {
      return toolError(`Grader ${existing.name} (${existing.id}) is a rule grader; edit it in the console or with POST /api/sdk/graders.`);
    }
    const config = (existing?.config ?? {}) as { model?: string; instructions?: string; target?: unknown };
    const fields: TGraderFields = { ...parseInstructions(config.instructions ?? "") };
    for (const f of ["evaluationFocus", "passCriteria", "failCriteria"] as const) if (args[f] !== undefined) fields[f] = args[f];
    const instructions = composeInstructions(fields);
    if (!instructions) return toolError("A grader needs at least one of evaluationFocus, passCriteria or failCriteria.");
    const body = parseWith(ZSaveGraderBody, {
      id: existing?.id,
      traceFunctionKey: args.traceFunctionKey ?? existing?.traceFunctionKey,
      name: args.name ?? existing?.name,
      kind: "llm_judge",
      config: { model: args.model ?? config.model ?? getEnv().REPRISE_JUDGE_MODEL, instructions, ...(config.target !== undefined ? { target: config.target } : {}) },
      status: args.status,
    }, "arguments");
    const saved = await saveGrader(db, auth.organizationId, { userId: auth.userId, via: "mcp", tool: "save_grader" }, body);
    const previous = saved.changed && saved.previousVersion
      ? (await findGraderVersions(db, auth.organizationId, saved.grader.id)).versions.find((v) => v.version === saved.previousVersion)
      : undefined;
    return { text: graderSavedText(saved, previous), data: { ...saved, fields } };
  },
});
