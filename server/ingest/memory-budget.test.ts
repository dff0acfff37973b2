import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { ByteBudget, COLLECT_AFTER_BYTES, withIngestBody } from "./memory-budget.ts";
import type { DeferredBody } from "../http/body.ts";

describe("ByteBudget", () => {
  it("runs work within the budget at once and queues the rest in order", async () => {
    const budget = new ByteBudget(10);
    const log: string[] = [];
    let release!: () => void;
    const blocker = new Promise<void>((r) => (release = r));
    const a = budget.run(6, async () => {
      log.push("a start");
      await blocker;
      log.push("a end");
    });
    const b = budget.run(6, async () => void log.push("b"));
    const c = budget.run(1, async () => void log.push("c"));
    await new Promise((r) => setTimeout(r, 10));
    // c would fit, but waits behind b (FIFO), so a large request is never starved.
    expect(log).toEqual(["a start"]);
    release();
    await Promise.all([a, b, c]);
    expect(log).toEqual(["a start", "a end", "b", "c"]);
  });

  it("admits a request larger than the whole budget alone, and frees its share on failure", async () => {
    const budget = new ByteBudget(10);
    await expect(budget.run(50, async () => Promise.reject(new Error("x")))).rejects.toThrow("x");
    expect(await budget.run(10, async () => "ok")).toBe("ok");
  });

  it("counts a request at its real size once known, so later requests wait for it", async () => {
    const budget = new ByteBudget(10);
    const log: string[] = [];
    let release!: () => void;
    const blocker = new Promise<void>((r) => (release = r));
    // Admitted on an estimate of 2, it turns out to weigh 9: a request of 2 no longer fits beside it.
    const big = budget.run(2, async (resize) => {
      resize(9);
      log.push("big");
      await blocker;
    });
    await new Promise((r) => setTimeout(r, 0));
    const small = budget.run(2, async () => void log.push("small"));
    await new Promise((r) => setTimeout(r, 10));
    expect(log).toEqual(["big"]);
    release();
    await Promise.all([big, small]);
    expect(log).toEqual(["big", "small"]);
  });

  it("admits waiting requests as soon as a running one turns out smaller than estimated", async () => {
    const budget = new ByteBudget(10);
    const log: string[] = [];
    let release!: () => void;
    const blocker = new Promise<void>((r) => (release = r));
    let shrink!: () => void;
    const shrunk = new Promise<void>((r) => (shrink = r));
    const first = budget.run(9, async (resize) => {
      await shrunk;
      resize(2);
      log.push("first shrank");
      await blocker;
      log.push("first end");
    });
    const second = budget.run(6, async () => void log.push("second"));
    await new Promise((r) => setTimeout(r, 10));
    expect(log).toEqual([]);
    shrink();
    await new Promise((r) => setTimeout(r, 10));
    // 2 + 6 fit in 10: the second request runs while the first is still running.
    expect(log).toEqual(["first shrank", "second"]);
    release();
    await Promise.all([first, second]);
  });
});

describe("withIngestBody's collections", () => {
  const g = globalThis as { gc?: () => void };
  const original = g.gc;
  afterEach(() => {
    g.gc = original;
  });
  const body = (bytes: number): DeferredBody => ({ estimatedBytes: bytes, inflate: async () => Buffer.alloc(bytes) });

  it("collects before and after a large body, before the next one is admitted, and never for a small one", async () => {
    const log: string[] = [];
    g.gc = () => void log.push("gc");
    await withIngestBody(body(2_000), async () => void log.push("small"));
    expect(log).toEqual(["small"]);
    log.length = 0;
    // Two large bodies at once: the budget admits the second only after the first's collection ran.
    await Promise.all([
      withIngestBody(body(COLLECT_AFTER_BYTES), async () => void log.push("first")),
      withIngestBody(body(7_500_000), async () => void log.push("second")),
    ]);
    expect(log).toEqual(["gc", "first", "gc", "gc", "second", "gc"]);
  });

  it("collects after a large body that failed too, and does nothing where the process exposes no collector", async () => {
    const log: string[] = [];
    g.gc = () => void log.push("gc");
    await expect(withIngestBody(body(2_000_000), async () => Promise.reject(new Error("bad")))).rejects.toThrow("bad");
    expect(log).toEqual(["gc", "gc"]);
    g.gc = undefined;
    expect(await withIngestBody(body(2_000_000), async (raw) => raw.length)).toBe(2_000_000);
  });

  it("the server on the embedded database exposes the collector; on PostgreSQL it does not", () => {
    const flags = (env: Record<string, string>) =>
      spawnSync(process.execPath, ["--input-type=module", "-e", "const m = await import('./scripts/start.mjs'); console.log(JSON.stringify(m.serverNodeFlags(JSON.parse(process.argv[1]))))", JSON.stringify(env)], { encoding: "utf8" });
    const embedded = flags({});
    expect(embedded.stderr).toBe("");
    expect(JSON.parse(embedded.stdout)).toContain("--expose-gc");
    expect(JSON.parse(flags({ DATABASE_URL: "postgresql://x" }).stdout)).not.toContain("--expose-gc");
  });
});
