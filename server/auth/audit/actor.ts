// Who a change is recorded as (docs/operations.md, "Audit log"): each surface names its actor once, where it
// authenticates the caller (tRPC's protected procedures, defineRoute, the MCP tool runner), and hands it to the
// service that writes, so every service records the same actor shape.
import type { TAuditActor } from "./audit.schemas.ts";

/** A signed-in person through the console. */
export const consoleActor = (auth: { userId: string }): TAuditActor => ({ userId: auth.userId, via: "console" });

/** An API key over REST: the key's user and the key. */
export const restActor = (auth: { userId: string; apiKeyId: string }): TAuditActor => ({ userId: auth.userId, via: "rest", apiKeyId: auth.apiKeyId });

/** An agent's MCP tool: the tool's name, the key it came with and the key's user. */
export const toolActor = (auth: { userId: string; apiKeyId: string }, tool: string): TAuditActor => ({ userId: auth.userId, via: "mcp", apiKeyId: auth.apiKeyId, tool });

/** The admin CLI (run on the server's host: no user). */
export const cliActor: TAuditActor = { userId: null, via: "cli" };

/** Someone acting on their own account without a session or key (accepting an invitation, using a reset link). */
export const selfActor = (userId: string): TAuditActor => ({ userId, via: "console" });
