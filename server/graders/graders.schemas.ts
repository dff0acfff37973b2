// Graders API wire contracts (docs/api/graders.md, "POST /api/sdk/graders"). Config is validated per kind, with issue
// paths under `config` so a client sees exactly which field is wrong.
import { z } from "zod";
import { GRADER_KINDS, ZJudgeConfig, ZRuleConfig } from "./grader-config.schemas.ts";

export const ZGraderStatus = z.enum(["active", "archived"]);

export const ZUpsertGraderBody = z
  .object({
    id: z.uuid("must be a grader id (UUID)").optional(),
    traceFunctionKey: z.string().trim().min(1, "is required").max(500),
    name: z.string().trim().min(1, "is required").max(200),
    kind: z.enum(GRADER_KINDS),
    config: z.unknown(),
    status: ZGraderStatus.optional(),
    live: z.boolean().optional(),
  })
  .transform((body, ctx) => {
    const parsed = (body.kind === "rule" ? ZRuleConfig : ZJudgeConfig).safeParse(body.config ?? undefined);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: ["config", ...issue.path.map(String)], message: issue.message });
      return z.NEVER;
    }
    return { ...body, config: parsed.data as Record<string, unknown> };
  });
export type TUpsertGraderBody = z.infer<typeof ZUpsertGraderBody>;

export const ZListGradersQuery = z.object({ traceFunctionKey: z.string().min(1).max(500).optional() });

export const ZGrader = z.object({
  id: z.string(),
  traceFunctionKey: z.string(),
  name: z.string(),
  kind: z.enum(GRADER_KINDS),
  config: z.record(z.string(), z.unknown()),
  status: ZGraderStatus,
  live: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TGrader = z.infer<typeof ZGrader>;

export const ZListGradersResponse = z.object({ graders: z.array(ZGrader) });
export const ZUpsertGraderResponse = z.object({ grader: ZGrader, created: z.boolean() });
