import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

/** One request as the fake server saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Bytes on the wire (possibly gzipped). */
  wire: Buffer;
  /** Decompressed body. */
  body: Buffer;
  receivedAt: number;
  json(): unknown;
}

/** What a handler returns: status, optional headers and a JSON body (or raw string). */
export interface FakeResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type Handler = (request: RecordedRequest) => FakeResponse | Promise<FakeResponse>;

/** A real HTTP server on 127.0.0.1 whose behaviour each test scripts (fault injection, no SDK mocks). */
export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  handler: Handler;
  inFlight: number;
  maxInFlight: number;
  close(): Promise<void>;
}

/** Starts a fake server. The default handler answers `{}` with 200. */
export async function startFakeServer(handler: Handler = () => ({ body: {} })): Promise<FakeServer> {
  const server = http.createServer();
  const fake: FakeServer = {
    url: "",
    requests: [],
    handler,
    inFlight: 0,
    maxInFlight: 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on("request", (req, res) => {
    const chunks: Buffer[] = [];
    fake.inFlight += 1;
    fake.maxInFlight = Math.max(fake.maxInFlight, fake.inFlight);
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const wire = Buffer.concat(chunks);
      const body = req.headers["content-encoding"] === "gzip" ? gunzipSync(wire) : wire;
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        wire,
        body,
        receivedAt: Date.now(),
        json: () => JSON.parse(body.toString("utf8")),
      };
      fake.requests.push(recorded);
      Promise.resolve(fake.handler(recorded)).then(
        (response) => respond(res, response, () => (fake.inFlight -= 1)),
        () => respond(res, { status: 500, body: { error: "handler failed" } }, () => (fake.inFlight -= 1)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function respond(res: http.ServerResponse, response: FakeResponse, done: () => void): void {
  done();
  const text = typeof response.body === "string" ? response.body : JSON.stringify(response.body ?? {});
  res.writeHead(response.status ?? 200, { "Content-Type": "application/json", ...(response.headers ?? {}) });
  res.end(text);
}

/** A URL on which nothing listens (a server started and closed again). */
export async function deadUrl(): Promise<string> {
  const server = await startFakeServer();
  const url = server.url;
  await server.close();
  return url;
}

/** Extracts carriers (operation + parsed payload) from an OTLP/JSON request body. */
export function carriersOf(request: RecordedRequest): Array<{ operation: string; payload: Record<string, unknown> }> {
  const body = request.json() as {
    resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ attributes: Array<{ key: string; value: { stringValue?: string } }> }> }> }>;
  };
  return body.resourceSpans.flatMap((rs) =>
    rs.scopeSpans.flatMap((ss) =>
      ss.spans.map((span) => {
        const attr = (key: string) => span.attributes.find((a) => a.key === key)?.value.stringValue ?? "";
        return { operation: attr("reprise.operation"), payload: JSON.parse(attr("reprise.payload")) as Record<string, unknown> };
      }),
    ),
  );
}

/** All carriers received on the OTLP route. */
export function allCarriers(server: FakeServer) {
  return server.requests.filter((r) => r.path === "/api/sdk/otel/v1/traces").flatMap(carriersOf);
}

/** Captures warnings instead of printing them. */
export function captureLogger() {
  const lines: string[] = [];
  return { lines, logger: { warn: (message: string) => lines.push(message) } };
}
