// The running server's control channel for the admin CLI (docs/operations.md, "Admin CLI"). The embedded
// database admits one process, so while the server holds it the CLI cannot open it; instead the server
// listens on a Unix socket in the data directory, readable and writable by its owner only (mode 0600), and
// runs the CLI's command itself. One JSON line in, one JSON line out.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { z } from "zod";
import type { Database } from "../db/client.ts";
import { logger } from "../logger.ts";
import { describeAdminError, runAdminCommand } from "./admin-commands.ts";

export const ADMIN_SOCKET_NAME = "admin.sock";
/** A socket path longer than this does not fit in sockaddr_un on Linux and macOS. */
const MAX_SOCKET_PATH = 103;
const MAX_REQUEST_BYTES = 64 * 1024;

const ZRequest = z.object({ command: z.string().min(1).max(100), flags: z.record(z.string(), z.string().max(10_000)) });

export type TAdminReply = { ok: true; result: Record<string, unknown> } | { ok: false; message: string; usage: boolean };

export function adminSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), ADMIN_SOCKET_NAME);
}

/**
 * Listens on `<dataDir>/admin.sock` (call only while holding the data directory's lock: a socket file left
 * by an earlier process is then stale and replaced). Returns the function that stops listening, or null
 * when the path is too long for a socket.
 */
export async function listenForAdminCommands(db: Database, dataDir: string): Promise<(() => Promise<void>) | null> {
  const socketPath = adminSocketPath(dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    logger.warn("no admin control channel: the data directory's path is too long for a Unix socket", { socketPath });
    return null;
  }
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => void serve(db, socket));
  // The socket file is created with mode 0600 from the start (umask), not chmod-ed after a window.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  fs.chmodSync(socketPath, 0o600);
  const unlink = () => fs.rmSync(socketPath, { force: true });
  process.once("exit", unlink);
  return () =>
    new Promise<void>((resolve) => {
      process.off("exit", unlink);
      server.close(() => resolve());
      unlink();
    });
}

async function serve(db: Database, socket: net.Socket): Promise<void> {
  socket.on("error", () => undefined);
  const reply = (r: TAdminReply): void => void socket.end(`${JSON.stringify(r)}\n`);
  let line: string;
  try {
    line = await readLine(socket);
  } catch (error) {
    return reply({ ok: false, message: (error as Error).message, usage: false });
  }
  let request: z.infer<typeof ZRequest>;
  try {
    request = ZRequest.parse(JSON.parse(line));
  } catch {
    return reply({ ok: false, message: "The control channel expects one JSON line: {\"command\", \"flags\"}.", usage: false });
  }
  try {
    reply({ ok: true, result: await runAdminCommand(db, request.command, request.flags) });
  } catch (error) {
    reply({ ok: false, ...describeAdminError(error) });
  }
}

function readLine(socket: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf("\n");
      if (end >= 0) resolve(buffer.slice(0, end));
      else if (buffer.length > MAX_REQUEST_BYTES) reject(new Error("The command is too long."));
    });
    socket.on("end", () => resolve(buffer));
  });
}

/** Sends one command to the server listening on `socketPath`; rejects when nothing answers there. */
export function sendAdminCommand(socketPath: string, command: string, flags: Record<string, string>): Promise<TAdminReply> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let answer = "";
    socket.setEncoding("utf8");
    socket.setTimeout(120_000, () => socket.destroy(new Error("The server did not answer within 2 minutes.")));
    socket.on("connect", () => socket.write(`${JSON.stringify({ command, flags })}\n`));
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      try {
        resolve(JSON.parse(answer) as TAdminReply);
      } catch {
        reject(new Error("The server's answer on the control channel was not JSON."));
      }
    });
  });
}
