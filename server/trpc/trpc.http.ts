// /api/trpc/*: the console's tRPC endpoint (fetch adapter). Before tRPC sees a POST we insist on a
// JSON body and read it through the shared body reader (size cap, encodings), so an HTML form from
// another site (form-urlencoded, multipart) can never reach a procedure (CSRF).
import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { AppError } from "../errors.ts";
import { readBody } from "../http/body.ts";
import { decodeUtf8Text } from "../shared/input-text.ts";
import { errorResponse, toAppError } from "../http/responses.ts";
import { createContext } from "./context.ts";
import { appRouter } from "./root.ts";

export async function handleTrpc(request: Request): Promise<Response> {
  const requestId = request.headers.get("x-request-id") ?? randomUUID();
  let req = request;
  try {
    if (request.method === "POST") {
      const type = request.headers.get("content-type") ?? "";
      if (!/^application\/json\s*(;|$)/i.test(type)) {
        throw new AppError("unsupported_media_type", "The console API accepts only application/json bodies.");
      }
      const body = await readBody(request);
      decodeUtf8Text(body, "input");
      const headers = new Headers(request.headers);
      headers.delete("content-encoding");
      headers.delete("content-length");
      req = new Request(request.url, { method: "POST", headers, body: new Uint8Array(body) });
    }
  } catch (error) {
    return errorResponse(error, requestId);
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: async ({ req: r, resHeaders }) => {
      try {
        return await createContext({ headers: r.headers, url: r.url, resHeaders });
      } catch (error) {
        // The context reads the session from the database: an outage here is a 503 like in a procedure.
        const appError = toAppError(error, requestId);
        throw new TRPCError({ code: appError.trpcCode, message: appError.message, cause: appError });
      }
    },
    // 429 and 503 carry Retry-After, as REST does (docs/api/console.md).
    responseMeta: ({ errors }) => {
      const waits = errors.map((e) => (e.cause instanceof AppError ? e.cause.retryAfter : undefined)).filter((w) => w !== undefined);
      return waits.length > 0 ? { headers: { "retry-after": String(Math.max(...waits)) } } : {};
    },
  });
}
