// The server entry (server/main.ts) as a client meets it over loopback, on the built app:
//  - the doors are served before Next.js, by the one declaration of server/doors.ts;
//  - an answer written before its request body ended closes the connection, so a kept-alive socket is never
//    left stalled (a 413 on a chunked body over 8 MB, on the routes Next.js serves too);
//  - a malformed Next.js router-state header is a 400, never a console page's 500;
//  - what Node's parser refuses (an unknown method, a URL over 16 KB) is answered with the JSON error body,
//    and every API answer carries `X-Content-Type-Options: nosniff` (docs/api.md, "Common rules").
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, freePort, stopProcessGroup, waitHealthy, spawnServer } from "./server-process.ts";

const API_KEY = `rp_entry_${randomUUID().replace(/-/g, "")}`;

interface TRawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses the first HTTP/1.1 answer in `data` (Content-Length or chunked body), or null while incomplete. */
function parseAnswer(data: Buffer): { answer: TRawAnswer; rest: Buffer } | null {
  const end = data.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [statusLine, ...lines] = data.subarray(0, end).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(statusLine!.split(" ")[1]);
  let at = end + 4;
  if (headers["transfer-encoding"] === "chunked") {
    const chunks: Buffer[] = [];
    for (;;) {
      const lineEnd = data.indexOf("\r\n", at);
      if (lineEnd < 0) return null;
      const size = parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
      if (data.length < lineEnd + 2 + size + 2) return null;
      chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
      if (size === 0) break;
    }
    return { answer: { status, headers, body: Buffer.concat(chunks).toString("utf8") }, rest: data.subarray(at) };
  }
  const length = Number(headers["content-length"] ?? 0);
  if (data.length < at + length) return null;
  return { answer: { status, headers, body: data.subarray(at, at + length).toString("utf8") }, rest: data.subarray(at + length) };
}

/** A raw connection: write bytes exactly as given, read answers and whether the server closed the socket. */
function connect(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  let data: Buffer = Buffer.alloc(0);
  let closed = false;
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  socket.on("data", (chunk) => {
    data = Buffer.concat([data, chunk]);
    wake();
  });
  socket.on("close", () => {
    closed = true;
    wake();
  });
  socket.on("error", () => undefined);
  const until = async (check: () => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    while (!check() && Date.now() < deadline) await new Promise<void>((r) => (waiters.push(r), setTimeout(r, 50)));
    return check();
  };
  return {
    socket,
    write: (bytes: string | Buffer) => new Promise<void>((resolve) => (socket.writable ? socket.write(bytes, () => resolve()) : resolve())),
    /** The next answer, within `ms`; null if none came. */
    async answer(ms = 15_000): Promise<TRawAnswer | null> {
      await until(() => parseAnswer(data) !== null || closed, ms);
      const parsed = parseAnswer(data);
      if (!parsed) return null;
      data = parsed.rest;
      return parsed.answer;
    },
    closed: (ms: number) => until(() => closed, ms),
    end: () => socket.destroy(),
  };
}

describe("the server entry", () => {
  let child: ChildProcess | undefined;
  let port = 0;
  let base = "";

  beforeAll(async () => {
    await buildApp();
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env = { DATABASE_URL: "", REPRISE_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "reprise-entry-")) };
    child = spawnServer(port, { name: "Entry test", apiKey: API_KEY, env });
    await waitHealthy(port);
  });
  afterAll(() => stopProcessGroup(child));

  it("serves each door itself: POST ingests, other methods are a JSON 405 naming POST", async () => {
    const auth = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" };
    for (const door of ["/v1/traces", "/api/otel/v1/traces", "/api/sdk/otel/v1/traces", "/v1/logs", "/api/otel/v1/logs"]) {
      const posted = await fetch(`${base}${door}`, { method: "POST", headers: auth, body: "{}" });
      expect(posted.status, door).toBe(200);
      expect(posted.headers.get("x-content-type-options"), door).toBe("nosniff");
      const got = await fetch(`${base}${door}`, { headers: auth });
      expect(got.status, door).toBe(405);
      expect(got.headers.get("allow"), door).toBe("POST, OPTIONS");
      expect(await got.json(), door).toMatchObject({ code: "method_not_allowed" });
    }
  });

  it("closes the connection with a 413 on a chunked body over 8 MB, on the doors and on the routes Next.js serves", async () => {
    for (const target of ["/api/sdk/externalSpans", "/mcp", "/v1/traces"]) {
      const conn = connect(port);
      await conn.write(
        `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${API_KEY}\r\nContent-Type: application/json\r\n` +
          "Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n",
      );
      const chunk = Buffer.alloc(1 << 20, "a");
      const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]);
      let answer: TRawAnswer | null = null;
      const answered = conn.answer(60_000).then((a) => (answer = a));
      // Up to 9 MB, stopping as soon as the server has answered (as a client that reads its answer does).
      // A server that stopped reading leaves a write pending forever: the answer ends the wait as well.
      for (let sent = 0; sent < 9 && answer === null && !conn.socket.destroyed; sent++) await Promise.race([conn.write(frame), answered]);
      await answered;
      expect(answer, target).not.toBeNull();
      expect(answer!.status, target).toBe(413);
      expect(answer!.headers.connection, target).toBe("close");
      expect(JSON.parse(answer!.body), target).toMatchObject({ code: "payload_too_large" });
      expect(await conn.closed(5_000), `${target}: the server closes the socket`).toBe(true);
      conn.end();
    }
  });

  it("keeps a connection alive after an answer whose body it read to the end", async () => {
    const conn = connect(port);
    for (let i = 0; i < 2; i++) {
      await conn.write(`POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${API_KEY}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
      const answer = await conn.answer();
      expect(answer?.status).toBe(200);
      expect(answer?.headers.connection).toBe("keep-alive");
    }
    conn.end();
  });

  it("refuses a malformed Next.js router-state header with a 400 instead of rendering a 500", async () => {
    for (const page of ["/", "/traces", "/sign-in"]) {
      const res = await fetch(`${base}${page}`, { headers: { rsc: "1", "next-router-state-tree": "%ZZ" }, redirect: "manual" });
      expect(res.status, page).toBe(400);
      expect(await res.json(), page).toMatchObject({ code: "bad_request" });
    }
    // A well-formed one still renders.
    const state = encodeURIComponent(JSON.stringify(["", { children: ["sign-in", { children: ["__PAGE__", {}] }] }, null, null, true]));
    const ok = await fetch(`${base}/sign-in`, { headers: { rsc: "1", "next-router-state-tree": state } });
    expect(ok.status).toBe(200);
  });

  it("answers what Node's parser refuses with the JSON error body", async () => {
    const cases: Array<[string, number, string]> = [
      ["FOO / HTTP/1.1\r\nHost: x\r\n\r\n", 405, "method_not_allowed"],
      [`GET /api/sdk/traces?q=${"x".repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, "headers_too_large"],
      ["GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", 400, "bad_request"],
    ];
    for (const [request, status, code] of cases) {
      const conn = connect(port);
      await conn.write(request);
      const answer = await conn.answer();
      expect(answer?.status, request.slice(0, 20)).toBe(status);
      expect(answer?.headers["content-type"]).toMatch(/application\/json/);
      expect(answer?.headers["x-content-type-options"]).toBe("nosniff");
      expect(JSON.parse(answer!.body)).toMatchObject({ code });
      conn.end();
    }
  });

  it("sends nosniff on every API answer, Next.js's included", async () => {
    const urls = ["/api/health", "/api/sdk/whoami", "/api/sdk/nothing", "/api/trpc/session.me", "/mcp"];
    for (const url of urls) {
      const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${API_KEY}` } });
      expect(res.headers.get("x-content-type-options"), `${url} (${res.status})`).toBe("nosniff");
    }
  });
});
