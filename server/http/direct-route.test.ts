// The adapters the request gate serves ingestion's OTLP doors with, over real HTTP: the route sees the
// request's method, address, headers and body; the body limit answers 413 on the same connection; a route
// that throws, or headers the Fetch standard refuses, answer JSON errors; and the table of doors the gate serves
// names the same functions as their route.ts files.
import http from "node:http";
import net from "node:net";
import zlib from "node:zlib";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { readBody } from "./body.ts";
import { serveDirect, type TRouteFunction } from "./direct-route.ts";
import { errorResponse } from "./responses.ts";

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server answering every request with `route` through serveDirect; returns its port. */
async function serve(route: TRouteFunction): Promise<number> {
  server = http.createServer((req, res) => void serveDirect(route, req, res));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** Echoes what the route saw, its body read by the shared reader (limit 1,000 bytes). */
const echo: TRouteFunction = async (request) => {
  try {
    const body = await readBody(request, 1_000);
    return Response.json({ method: request.method, url: request.url, trace: request.headers.get("x-trace"), body: body.toString("utf8") }, { headers: { "x-answered": "yes" } });
  } catch (error) {
    return errorResponse(error, "req-1");
  }
};

/** Sends raw bytes on a socket and returns what comes back until the server closes it or `until` matches. */
function rawExchange(port: number, request: string, until: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
    let got = "";
    socket.on("data", (d) => {
      got += d.toString("latin1");
      if (until.test(got)) {
        socket.destroy();
        resolve(got);
      }
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(got));
  });
}

describe("the doors the gate serves", () => {
  it("are served by the very POST function each one's route.ts exports", async () => {
    const { DIRECT_POSTS } = await import("../startup.ts");
    expect(DIRECT_POSTS.size).toBeGreaterThan(0);
    for (const [path, route] of DIRECT_POSTS) {
      const file = await import(/* @vite-ignore */ fileURLToPath(new URL(`../../app${path}/route.ts`, import.meta.url)));
      expect(file.POST, path).toBe(route);
    }
  });
});

describe("serving a route without Next.js", () => {
  it("hands the route the request's method, address, headers and inflated body, and writes its answer", async () => {
    const port = await serve(echo);
    const res = await fetch(`http://127.0.0.1:${port}/v1/traces?x=1`, {
      method: "POST",
      headers: { "x-trace": "a", "content-encoding": "gzip" },
      body: zlib.gzipSync("hello spans"),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-answered")).toBe("yes");
    expect(await res.json()).toEqual({ method: "POST", url: `http://127.0.0.1:${port}/v1/traces?x=1`, trace: "a", body: "hello spans" });
  });

  it("answers 413 past the limit on the same connection, whether the length is declared or streamed", async () => {
    const port = await serve(echo);
    const declared = await fetch(`http://127.0.0.1:${port}/v1/traces`, { method: "POST", body: "x".repeat(1_001) });
    expect(declared.status).toBe(413);
    expect((await declared.json()).code).toBe("payload_too_large");
    // Chunked, so only counting the bytes as they arrive can tell.
    const chunk = "x".repeat(600);
    const head = `POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunks = `${chunk.length.toString(16)}\r\n${chunk}\r\n`.repeat(2);
    const answer = await rawExchange(port, head + chunks, /payload_too_large/);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });

  it("answers 400 when the client goes away before its body is complete", async () => {
    let seen: Response | undefined;
    const port = await serve(async (request, context) => (seen = await echo(request, context)));
    const socket = net.connect(port, "127.0.0.1", () => socket.end("POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc"));
    await expect.poll(() => seen?.status, { timeout: 5_000 }).toBe(400);
  });

  it("answers a Host the Fetch standard refuses with a JSON 400, and a route that throws with a JSON 500", async () => {
    const port = await serve(echo);
    const badHost = await rawExchange(port, "POST /v1/traces HTTP/1.1\r\nHost: exa mple\r\nContent-Length: 0\r\n\r\n", /\}$/);
    expect(badHost).toMatch(/^HTTP\/1\.1 400 /);
    expect(badHost).toContain('"code":"bad_request"');
    server!.close();
    const failing = await serve(async () => {
      throw new Error("boom");
    });
    const res = await fetch(`http://127.0.0.1:${failing}/v1/traces`, { method: "POST", body: "{}" });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: "internal_error" });
  });
});
