import { z } from "zod";
import { saveJudgeGrader } from "../../graders/judge-grader.service.ts";
import { ZGraderOutput } from "../../graders/grader-output.schemas.ts";
import { fromJsonText, zId, zText } from "../args.ts";
import { graderSavedText } from "../render/graders.ts";
import { defineTool, toolError } from "../tool.ts";

export const saveGraderTool = defineTool({
  name: "save_grader",
  permission: "manage-graders",
  aliases: ["create_grader"],
  description:
    "Create or edit an LLM-judge grader. With graderId it edits that grader; otherwise a grader with the same name on the same trace function is updated, " +
    "or a new one is created. An edit is a new version of the grader attributed to this agent; the previous version is kept and can be reverted. evaluationFocus, passCriteria and failCriteria become the judge's instructions; an omitted field is kept and \"\" clears it. " +
    "model is passed to the configured OpenAI-compatible endpoint (default: the server's judge model). " +
    "output sets what the judge records beside pass/fail: {type: \"score\", min, max, passThreshold?} (a score >= passThreshold passes) or " +
    "{type: \"category\", categories, passingCategories?}; {type: \"passFail\"} or null goes back to pass/fail only; omitted keeps the grader's.",
  input: {
    graderId: zId.optional(),
    traceFunctionKey: zText(500).min(1).optional(),
    name: zText(200).min(1).optional(),
    evaluationFocus: zText(20_000).optional(),
    passCriteria: zText(20_000).optional(),
    failCriteria: zText(20_000).optional(),
    status: z.enum(["active", "archived"]).optional(),
    model: zText(200).min(1).optional(),
    // The same schema REST and tRPC check a grader's config.output with (docs/graders.md, "Scores and categories").
    output: fromJsonText(ZGraderOutput.nullable()).optional().describe("Score range and threshold, or categories and passing ones; null: pass/fail only; omitted: kept."),
  },
  run: async (args, { db, auth }) => {
    const result = await saveJudgeGrader(db, auth.organizationId, { userId: auth.userId, via: "mcp", tool: "save_grader", apiKeyId: auth.apiKeyId }, args);
    if (!result.ok) return toolError(result.reason);
    return { text: graderSavedText(result.saved, result.previous), data: { ...result.saved, fields: result.fields } };
  },
});
