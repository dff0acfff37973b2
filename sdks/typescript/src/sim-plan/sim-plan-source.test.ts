import { afterEach, describe, expect, it, vi } from "vitest";
import { SimPlanSource } from "./sim-plan-source.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("SimPlanSource refresh policy", () => {
  it("retries 10 s after a failure and refreshes 60 s after a success, keeping a stale plan on failure", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(0);
    const outcomes = [false, true, false];
    let reads = 0;
    const source = new SimPlanSource(async () => {
      const ok = outcomes[reads++] ?? true;
      return ok ? { ok: true, contentOff: new Set(["k\u0000n"]) } : { ok: false };
    });
    expect(source.state().kind).toBe("pending");
    await source.settled();
    expect(source.state().kind).toBe("unavailable");
    vi.setSystemTime(9_000);
    source.state();
    expect(reads).toBe(1);
    vi.setSystemTime(10_001);
    source.state();
    await source.settled();
    expect(reads).toBe(2);
    expect(source.state().kind).toBe("ready");
    vi.setSystemTime(60_000);
    source.state();
    expect(reads).toBe(2);
    vi.setSystemTime(70_002);
    source.state();
    await source.settled();
    expect(reads).toBe(3);
    expect(source.state().kind).toBe("ready"); // the failed refresh kept the last good plan
  });
});
