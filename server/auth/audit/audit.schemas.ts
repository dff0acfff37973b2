import { z } from "zod";

/** Who made a change: a console user, an API key (REST), an agent's MCP tool (with its key), or the admin CLI. */
export interface TAuditActor {
  userId: string | null;
  via: "console" | "rest" | "mcp" | "cli";
  apiKeyId?: string | null;
  tool?: string | null;
}

/** One change as recorded: what kind, on what, the value before (null: created) and after (null: removed). */
export interface TAuditChange {
  kind: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
}

export const AUDIT_VIAS = ["console", "rest", "mcp", "cli"] as const;

/** GET /api/sdk/audit and audit.list: newest first, filtered by actor, kind (a prefix such as "grader.") and time. */
export const ZAuditQuery = z.object({
  actorUserId: z.uuid().optional(),
  via: z.enum(AUDIT_VIAS).optional(),
  kind: z.string().trim().min(1).max(100).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type TAuditQuery = z.infer<typeof ZAuditQuery>;

export const ZAuditEvent = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ via: z.enum(AUDIT_VIAS), userId: z.string().nullable(), email: z.string().nullable(), apiKeyId: z.string().nullable(), tool: z.string().nullable() }),
  kind: z.string(),
  target: z.object({ type: z.string(), id: z.string() }),
  before: z.unknown(),
  after: z.unknown(),
});
export type TAuditEvent = z.infer<typeof ZAuditEvent>;

export const ZAuditPage = z.object({ events: z.array(ZAuditEvent), nextCursor: z.string().nullable() });
export type TAuditPage = z.infer<typeof ZAuditPage>;
