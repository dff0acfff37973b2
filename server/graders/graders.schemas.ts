// Graders API wire contracts (docs/api/graders.md, "POST /api/sdk/graders"). Config is validated per kind, with issue
// paths under `config` so a client sees exactly which field is wrong.
import { z } from "zod";
import { GRADER_KINDS, ZJudgeConfig, ZRuleConfig } from "./grader-config.schemas.ts";

export const ZGraderStatus = z.enum(["active", "archived"]);

export const ZSaveGraderBody = z
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
export type TSaveGraderBody = z.infer<typeof ZSaveGraderBody>;

export const ZListGradersQuery = z.object({ traceFunctionKey: z.string().min(1).max(500).optional() });

export const ZGrader = z.object({
  id: z.string(),
  traceFunctionKey: z.string(),
  name: z.string(),
  kind: z.enum(GRADER_KINDS),
  config: z.record(z.string(), z.unknown()),
  status: ZGraderStatus,
  live: z.boolean(),
  /** The number of its latest version (docs/graders.md, "History"). */
  version: z.number().int().positive(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TGrader = z.infer<typeof ZGrader>;

export const ZListGradersResponse = z.object({ graders: z.array(ZGrader) });
/** `changed: false` when an edit equals the current version (no new version is written). */
export const ZSaveGraderResponse = z.object({ grader: ZGrader, created: z.boolean(), changed: z.boolean(), previousVersion: z.number().int().nullable() });
export type TSaveGraderResponse = z.infer<typeof ZSaveGraderResponse>;

/** Who wrote a version, and through what: the console, a REST key, or an agent's MCP tool. */
export const ZGraderAuthor = z.object({
  userId: z.string().nullable(),
  /** The user's name or email; null when unknown (a version from before history was kept, or a deleted user). */
  name: z.string().nullable(),
  via: z.enum(["console", "rest", "mcp", "migration"]),
  tool: z.string().nullable(),
});
export type TGraderAuthor = z.infer<typeof ZGraderAuthor>;

export const ZGraderVersion = z.object({
  version: z.number().int().positive(),
  definition: z.object({
    traceFunctionKey: z.string(),
    name: z.string(),
    kind: z.enum(GRADER_KINDS),
    config: z.record(z.string(), z.unknown()),
    status: ZGraderStatus,
    live: z.boolean(),
  }),
  author: ZGraderAuthor,
  summary: z.string(),
  /** Each field that differs from the version before, as JSON text (null where absent); empty for version 1. */
  changes: z.array(z.object({ path: z.string(), before: z.string().nullable(), after: z.string().nullable() })),
  revertedFrom: z.number().int().nullable(),
  createdAt: z.string(),
});
export type TGraderVersion = z.infer<typeof ZGraderVersion>;
export const ZGraderVersionsResponse = z.object({ graderId: z.string(), versions: z.array(ZGraderVersion) });

export const ZGraderIdParams = z.object({ id: z.uuid("must be a grader id (UUID)") });
export const ZRevertGraderBody = z.object({ version: z.number().int().positive() }).strict();
