import type { ResolvedConfig } from "../config.js";
import { RepriseApiError, RepriseConfigError } from "../errors.js";
import { maybeGzip } from "../transport/compress.js";
import { parseJsonBody, sendHttp } from "./request.js";

/** Options of one blocking call. */
export interface ApiCallOptions {
  timeoutMs?: number;
  headers?: Record<string, string>;
}

/** Raw answer of a blocking call, for callers that treat some statuses specially (the sim plan's 404). */
export type ApiAnswer = { kind: "ok"; status: number; body: unknown } | { kind: "error"; error: RepriseApiError };

/**
 * Client for Reprise's blocking JSON endpoints under `/api/sdk/`. Non-2xx answers, 2xx bodies with a string
 * `error`, network errors and timeouts become `RepriseApiError` (docs/sdk-transport.md, "Responses").
 */
export class ApiClient {
  constructor(private readonly config: ResolvedConfig) {}

  /** The configured base URL. */
  get baseUrl(): string {
    return this.config.serviceUrl;
  }

  /** Calls an endpoint and returns its JSON body, or throws `RepriseApiError`. */
  async call<T>(method: "GET" | "POST" | "PATCH", path: string, body?: unknown, options: ApiCallOptions = {}): Promise<T> {
    const answer = await this.tryCall(method, path, body, options);
    if (answer.kind === "error") throw answer.error;
    return answer.body as T;
  }

  /** Calls an endpoint and returns the outcome as a value. */
  async tryCall(
    method: "GET" | "POST" | "PATCH",
    path: string,
    body?: unknown,
    options: ApiCallOptions = {},
  ): Promise<ApiAnswer> {
    if (this.config.apiKey === "") throw new RepriseConfigError("No API key: pass apiKey or set REPRISE_API_KEY.");
    const headers: Record<string, string> = { Authorization: `Bearer ${this.config.apiKey}`, ...options.headers };
    let payload: Uint8Array | undefined;
    if (body !== undefined) {
      const prepared = await maybeGzip(Buffer.from(JSON.stringify(body)), this.config.compression);
      payload = prepared.body;
      headers["Content-Type"] = "application/json";
      if (prepared.gzipped) headers["Content-Encoding"] = "gzip";
    }
    const url = `${this.config.serviceUrl}/api/sdk${path}`;
    const outcome = await sendHttp({ method, url, headers, body: payload, timeoutMs: options.timeoutMs ?? 30_000 });
    if (outcome.kind === "network_error") {
      return { kind: "error", error: new RepriseApiError(`${method} ${url} failed: ${outcome.error.message}`) };
    }
    const json = parseJsonBody(outcome.body);
    const record = (json ?? {}) as Record<string, unknown>;
    const ok = outcome.status >= 200 && outcome.status < 300;
    if (ok && typeof record.error !== "string") return { kind: "ok", status: outcome.status, body: json ?? {} };
    return { kind: "error", error: this.toError(method, url, outcome.status, record, outcome.body) };
  }

  private toError(method: string, url: string, status: number, record: Record<string, unknown>, raw: Buffer) {
    const reason = typeof record.error === "string" ? record.error : raw.subarray(0, 500).toString("utf8");
    const fixAt = typeof record.url === "string" ? `${this.config.serviceUrl}${record.url}` : undefined;
    const message = `${method} ${url} answered ${status}: ${reason}${fixAt ? ` Configure it at: ${fixAt}` : ""}`;
    return new RepriseApiError(message, status, typeof record.code === "string" ? record.code : undefined, fixAt);
  }
}
