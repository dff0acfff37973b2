import http from "node:http";
import https from "node:https";

/** One HTTP exchange's outcome. A transport failure is a value, not an exception. */
export type HttpOutcome =
  | { kind: "response"; status: number; headers: http.IncomingHttpHeaders; body: Buffer }
  | { kind: "network_error"; error: Error; timedOut: boolean };

/** Parameters of one request. */
export interface HttpRequest {
  method: "GET" | "POST" | "PATCH";
  url: string;
  headers?: Record<string, string>;
  body?: Uint8Array;
  timeoutMs: number;
  agent?: http.Agent;
}

/**
 * Sends one request with node:http(s) and reads the whole response. Resolves with a network error instead of
 * rejecting, and enforces `timeoutMs` over the whole exchange (docs/sdk-transport.md, rule 8).
 */
export function sendHttp(request: HttpRequest): Promise<HttpOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: HttpOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    let url: URL;
    try {
      url = new URL(request.url);
    } catch (error) {
      finish({ kind: "network_error", error: asError(error), timedOut: false });
      return;
    }
    const lib = url.protocol === "https:" ? https : http;
    const req = lib.request(url, { method: request.method, headers: withLength(request), agent: request.agent });
    const timer = setTimeout(() => {
      req.destroy(new Error(`request timed out after ${request.timeoutMs} ms`));
      finish({ kind: "network_error", error: new Error(`timed out after ${request.timeoutMs} ms`), timedOut: true });
    }, request.timeoutMs);
    timer.unref?.();
    req.on("error", (error) => finish({ kind: "network_error", error, timedOut: false }));
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", (error) => finish({ kind: "network_error", error, timedOut: false }));
      res.on("end", () =>
        finish({ kind: "response", status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.end(request.body);
  });
}

function withLength(request: HttpRequest): Record<string, string> {
  const headers = { ...(request.headers ?? {}) };
  if (request.body !== undefined) headers["Content-Length"] = String(request.body.byteLength);
  return headers;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Parses a JSON body, or returns undefined when it is empty or not JSON. */
export function parseJsonBody(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}
