import http from "node:http";
import type { AddressInfo } from "node:net";
import { decodeOtlpJson, decodeOtlpProtobuf, decompress } from "./decode.ts";
import { ReplayState } from "./replay-state.ts";
import type { Action, Carrier, RecordedRequest, Responder } from "./types.ts";

/** The routes of the ingestion side the SDKs call, by name. Anything else is `unknown` (404). */
const ROUTES: Array<[string, string, RegExp]> = [
  ["otlp", "POST", /^\/api\/sdk\/otel\/v1\/traces$/],
  ["collector", "POST", /^\/collector\/v1\/traces$/],
  ["sim-plan", "GET", /^\/api\/sdk\/sim-plan$/],
  ["functions-lookup", "POST", /^\/api\/sdk\/functions\/lookup$/],
  ["function-traces", "POST", /^\/api\/sdk\/functions\/[^/]+\/traces$/],
  ["external-spans", "POST", /^\/api\/sdk\/externalSpans$/],
  ["external-traces", "POST", /^\/api\/sdk\/externalTraces$/],
  ["external-span", "GET", /^\/api\/sdk\/externalSpans\/[^/]+$/],
  ["span-tree", "GET", /^\/api\/sdk\/replay\/spanTree\/[^/]+$/],
  ["patch-trace", "PATCH", /^\/api\/sdk\/traces\/[^/]+$/],
  ["replay-start", "POST", /^\/api\/sdk\/replay\/start$/],
  ["replay-status", "POST", /^\/api\/sdk\/replay\/status$/],
  ["replay-complete", "POST", /^\/api\/sdk\/replay\/complete$/],
];

/** Base path a scenario gives as `REPRISE_OTEL_EXPORTER_ENDPOINT` (the SDK appends `/v1/traces`). */
export const COLLECTOR_BASE_PATH = "/collector";

/**
 * A local HTTP server speaking the ingestion side of Reprise's protocol. It records every request exactly as
 * received (headers, raw bytes, decompressed body, decoded carriers, timestamps) and answers each route as the
 * scenario scripted it, falling back to what Reprise would answer.
 */
export class Recorder {
  readonly requests: RecordedRequest[] = [];
  readonly replay = new ReplayState();
  /** Content-off nodes `GET /api/sdk/sim-plan` returns. */
  simPlanNodes: Array<{ traceFunctionKey: string; name: string; captureContent: boolean }> = [];
  /** Functions `functions/lookup` knows, by name. */
  functions = new Map<string, string>();
  url = "";
  private readonly server = http.createServer((req, res) => void this.handle(req, res));
  private readonly responders = new Map<string, Responder>();
  private readonly counts = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private readonly hanging = new Set<http.ServerResponse>();

  /** Starts listening on 127.0.0.1 on a free port. */
  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Stops listening and drops every connection, hanging answers included. */
  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Scripts how a route answers from now on; `n` counts that route's requests from 0. */
  on(route: string, responder: Responder): this {
    this.responders.set(route, responder);
    return this;
  }

  /** Requests of one route (or every request), in arrival order. */
  of(route?: string): RecordedRequest[] {
    return route === undefined ? this.requests : this.requests.filter((r) => r.route === route);
  }

  /** Every carrier received on the OTLP routes (direct and Collector), in arrival order. */
  carriers(filter?: (c: Carrier) => boolean): Carrier[] {
    const all = this.requests.flatMap((r) => r.carriers);
    return filter ? all.filter(filter) : all;
  }

  /** Resolves once `predicate` holds over the recorded requests, or rejects after `timeoutMs`. */
  waitFor(predicate: () => boolean, timeoutMs = 10_000, what = "the expected requests"): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`recorder: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.waiters.add(check);
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const receivedAt = Date.now();
    const url = new URL(req.url ?? "/", "http://recorder");
    const route = ROUTES.find(([, method, pattern]) => method === req.method && pattern.test(url.pathname))?.[0] ?? "unknown";
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const recorded: RecordedRequest = {
      seq: this.requests.length,
      method: req.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      route,
      headers: req.headers,
      raw,
      body: raw,
      carriers: [],
      receivedAt,
      bodyAt: Date.now(),
    };
    this.decode(recorded);
    this.requests.push(recorded);
    res.on("close", () => {
      if (recorded.answeredAt === undefined && recorded.abortedAt === undefined) recorded.abortedAt = Date.now();
      this.hanging.delete(res);
      this.notify();
    });
    const n = this.counts.get(route) ?? 0;
    this.counts.set(route, n + 1);
    this.notify();
    const action = (await this.responders.get(route)?.(recorded, n)) ?? this.defaultAction(recorded);
    await this.answer(recorded, res, action);
  }

  private decode(recorded: RecordedRequest): void {
    try {
      recorded.body = decompress(recorded.raw, recorded.headers["content-encoding"] as string | undefined);
      if (recorded.route === "otlp" || recorded.route === "collector") {
        const type = String(recorded.headers["content-type"] ?? "");
        recorded.carriers = type.includes("protobuf") ? decodeOtlpProtobuf(recorded.body) : decodeOtlpJson(recorded.body);
      } else if (recorded.body.length > 0) {
        recorded.json = JSON.parse(recorded.body.toString("utf8"));
      }
    } catch (error) {
      recorded.decodeError = (error as Error).message;
    }
  }

  private async answer(recorded: RecordedRequest, res: http.ServerResponse, action: Action): Promise<void> {
    if (action.delayMs) await new Promise((resolve) => setTimeout(resolve, action.delayMs));
    if (res.destroyed) return;
    if (action.reset) {
      recorded.answeredAt = Date.now();
      res.socket?.destroy();
      this.notify();
      return;
    }
    if (action.hang) {
      this.hanging.add(res);
      return;
    }
    const status = action.status ?? 200;
    const body =
      Buffer.isBuffer(action.body) || typeof action.body === "string"
        ? Buffer.from(action.body as string)
        : Buffer.from(JSON.stringify(action.body ?? {}));
    const isProtobuf = recorded.route === "collector";
    res.writeHead(status, { "Content-Type": isProtobuf ? "application/x-protobuf" : "application/json", ...action.headers });
    res.end(isProtobuf && !action.body ? Buffer.alloc(0) : body);
    recorded.status = status;
    recorded.answeredAt = Date.now();
    if (status >= 200 && status < 300) {
      for (const carrier of recorded.carriers) this.replay.acked.push({ carrier, at: recorded.answeredAt });
    }
    this.notify();
  }

  /** What Reprise would answer. */
  private defaultAction(recorded: RecordedRequest): Action {
    const json = recorded.json as Record<string, any> | undefined;
    const id = decodeURIComponent(recorded.path.split("/").pop() ?? "");
    switch (recorded.route) {
      case "otlp": {
        const ids = recorded.carriers.map((c) => String(c.payload.sourceTraceId ?? c.payload.id ?? "")).filter(Boolean);
        return { body: { traceIds: Object.fromEntries(ids.map((t) => [t, t])) } };
      }
      case "collector":
        return {};
      case "sim-plan":
        return { body: { nodes: this.simPlanNodes } };
      case "functions-lookup": {
        const found = this.functions.get(String(json?.name));
        return { body: found ? { id: found, name: json?.name, versionId: found, versionNumber: 1, prompt: "p", providers: [] } : { id: null } };
      }
      case "external-span": {
        const span = this.replay.externalSpan(id);
        return span ? { body: span } : { status: 404, body: { error: "span not found", code: "not_found" } };
      }
      case "span-tree": {
        const tree = this.replay.spanTree(id);
        return tree ? { body: tree } : { status: 404, body: { error: "span not found", code: "not_found" } };
      }
      case "replay-start":
        return { body: this.replay.start(json) };
      case "replay-status":
        return { body: { traceIds: this.replay.persisted(json?.expectedSpanCounts ?? {}) } };
      case "replay-complete":
        return { body: this.replay.complete() };
      case "unknown":
        return { status: 404, body: { error: `no route ${recorded.method} ${recorded.path}`, code: "not_found" } };
      default:
        return { body: {} };
    }
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
