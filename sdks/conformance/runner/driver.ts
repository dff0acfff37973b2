import { spawn, type ChildProcess } from "node:child_process";
import readline from "node:readline";
import type { SdkManifest } from "./sdks.ts";

/** A neutral error kind a driver reports (PROTOCOL.md, Error kinds). */
export class DriverError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(`${type}: ${message}`);
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  cmd: string;
}

/**
 * One driver process, spoken to in JSON lines over stdin/stdout (sdks/conformance/PROTOCOL.md). Its stderr is
 * collected so scenarios can check warnings.
 */
export class Driver {
  stderr = "";
  /** Lines the driver wrote to stdout that were not answers (a protocol violation). */
  readonly strayOutput: string[] = [];
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private exited: string | undefined;

  constructor(sdk: SdkManifest, env: Record<string, string>) {
    const [command, ...args] = sdk.conformanceDriver as string[];
    this.child = spawn(command as string, args, {
      cwd: sdk.dir,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...sdk.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stderr?.on("data", (chunk: Buffer) => (this.stderr += chunk.toString("utf8")));
    readline.createInterface({ input: this.child.stdout! }).on("line", (line) => this.onLine(line));
    this.child.on("exit", (code, signal) => {
      this.exited = `driver exited (code ${code}, signal ${signal}); stderr:\n${this.stderr.slice(-2000)}`;
      for (const p of this.pending.values()) p.reject(new Error(`${p.cmd}: ${this.exited}`));
      this.pending.clear();
    });
    this.child.stdin?.on("error", () => {});
  }

  /** Sends a command and resolves with its result, or rejects with a `DriverError`. */
  call<T = unknown>(cmd: string, args: Record<string, unknown> = {}, timeoutMs = 120_000): Promise<T> {
    if (this.exited) return Promise.reject(new Error(`${cmd}: ${this.exited}`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${cmd}: no answer from the driver within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        cmd,
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as T);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.child.stdin?.write(`${JSON.stringify({ id, cmd, ...args })}\n`);
    });
  }

  /** Sends a command and returns the neutral error it failed with (fails when it succeeded). */
  async callExpectingError(cmd: string, args: Record<string, unknown> = {}): Promise<DriverError> {
    try {
      const result = await this.call(cmd, args);
      const failure = new Error(`${cmd} succeeded with ${JSON.stringify(result)} where an error was expected`);
      failure.name = "AssertionError";
      throw failure;
    } catch (error) {
      if (error instanceof DriverError) return error;
      throw error;
    }
  }

  /** Closes stdin and kills the process if it does not exit promptly. */
  async stop(): Promise<void> {
    if (this.exited) return;
    this.child.stdin?.end();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.child.kill("SIGKILL");
        resolve();
      }, 2_000);
      this.child.on("exit", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private onLine(line: string): void {
    let message: { id?: number; ok?: boolean; result?: unknown; error?: { type?: string; message?: string } & Record<string, unknown> };
    try {
      message = JSON.parse(line);
    } catch {
      this.strayOutput.push(line);
      return;
    }
    const pending = message.id === undefined ? undefined : this.pending.get(message.id);
    if (!pending) {
      this.strayOutput.push(line);
      return;
    }
    this.pending.delete(message.id as number);
    if (message.ok) pending.resolve(message.result);
    else {
      const error = message.error ?? {};
      pending.reject(new DriverError(String(error.type ?? "other"), String(error.message ?? ""), error));
    }
  }
}
