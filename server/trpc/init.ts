// tRPC setup: superjson, errors mapped through the ONE table of server/errors.ts, the same-origin
// check on mutations, and the procedure kinds (public: sign-in only; protected: everything else).
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import { AppError, toValidationIssues } from "../errors.ts";
import { toAppError } from "../http/responses.ts";
import type { TContext } from "./context.ts";
import { isSameOriginRequest } from "./csrf.ts";
import { trpcErrorData } from "./error-shape.ts";
import { assertInputText } from "../shared/input-text.ts";
import { getReadReplica } from "../db.ts";
import { isConnectionFailure, readsFromReplica, replicaFor, writtenCookie } from "./replica-reads.ts";
import { assertAllowed, type TPermission } from "../auth/permissions.ts";
import { consoleActor } from "../auth/audit/actor.ts";

/** What a procedure declares: the permission it needs (server/auth/permissions.ts). */
export interface TProcedureMeta {
  permission?: TPermission;
}

const t = initTRPC.context<TContext>().meta<TProcedureMeta>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    // Errors raised outside procedures (context creation) never reach mapErrors: hide their internals too.
    const hidden = error.code === "INTERNAL_SERVER_ERROR" && !(cause instanceof AppError);
    const issues = cause instanceof ZodError ? toValidationIssues(cause.issues) : cause instanceof AppError ? cause.issues : undefined;
    return {
      ...shape,
      message: hidden ? "Internal server error." : cause instanceof ZodError ? `Invalid input: ${issues?.[0]?.path ? `${issues[0].path}: ` : ""}${issues?.[0]?.message ?? ""}` : shape.message,
      data: trpcErrorData(shape.data.code, shape.data.httpStatus, shape.data.path, cause instanceof AppError ? cause : undefined, issues),
    };
  },
});

/** AppError → its tRPC code from the shared table; anything unknown → a logged internal error with no internals. */
const mapErrors = t.middleware(async ({ ctx, next }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause;
  if (result.error.code !== "INTERNAL_SERVER_ERROR" || cause instanceof ZodError) return result;
  const appError = cause instanceof AppError ? cause : toAppError(cause ?? result.error, ctx.requestId);
  throw new TRPCError({ code: appError.trpcCode, message: appError.message, cause: appError });
});

const sameOriginMutations = t.middleware(({ ctx, type, next }) => {
  if (type === "mutation" && !isSameOriginRequest(ctx.request)) {
    throw new AppError("forbidden", "Cross-site request refused: mutations must come from the console's own origin.");
  }
  return next();
});

/** The text and nesting rules of every surface, on the raw input before any schema walks it (docs/api.md). */
const textRules = t.middleware(async ({ getRawInput, next }) => {
  assertInputText(await getRawInput(), { where: "input" });
  return next();
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.use(mapErrors).use(sameOriginMutations).use(textRules);

/**
 * With a read replica (DATABASE_READ_URL): the console's heavy reads go to it, a write leaves a cookie that keeps
 * this browser's reads on the primary until the replica shows it, and a read the replica failed runs again on the
 * primary (replica-reads.ts).
 */
const replicaReads = t.middleware(async ({ ctx, type, path, next }) => {
  const replica = await getReadReplica();
  if (!replica) return next();
  if (type === "mutation") {
    const result = await next();
    if (result.ok) {
      const cookie = await writtenCookie(ctx.db, ctx.request.secure);
      if (cookie) ctx.resHeaders.append("set-cookie", cookie);
    }
    return result;
  }
  const chosen = readsFromReplica(path) ? await replicaFor(replica, ctx.writtenAt ?? null) : undefined;
  if (!chosen) return next();
  const result = await next({ ctx: { ...ctx, db: chosen.db } });
  if (result.ok || !isConnectionFailure(result.error.cause ?? result.error)) return result;
  chosen.markUnavailable();
  return next();
});

/**
 * Every console procedure but sign-in: requires a live session, scopes to the user's organization and checks the
 * user's role against the permission the procedure declares (`.meta({ permission })`) before its input is read.
 * A query that declares none needs `read`; a mutation that declares none needs the strongest permission, so a
 * forgotten declaration is never a hole (the role matrix test also fails on it). Then the read replica's routing.
 */
export const protectedProcedure = publicProcedure
  .use(({ ctx, meta, type, next }) => {
    if (!ctx.session) throw new AppError("unauthorized", "Your session has ended. Sign in again.");
    const { organizationId, userId, role } = ctx.session;
    assertAllowed({ role, scope: null }, meta?.permission ?? (type === "query" ? "read" : "manage-owners"));
    return next({ ctx: { ...ctx, session: ctx.session, auth: { organizationId, userId, role }, actor: consoleActor({ userId }) } });
  })
  .use(replicaReads);

/** A console procedure that needs this permission. */
export const allowed = (permission: TPermission) => protectedProcedure.meta({ permission });
