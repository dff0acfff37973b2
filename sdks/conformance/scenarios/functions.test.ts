// Blocking calls besides replay: function lookup, function-execution traces and detached trace updates
// (docs/api/functions.md; docs/sdk-transport.md, rule 1; docs/api/traces.md, "PATCH /api/sdk/traces/{traceId}").
import { expect } from "vitest";
import { containsValue } from "../runner/checks.ts";
import { conformance } from "../runner/harness.ts";

const FUNCTION_ID = "5e0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b";
const TRACE_ID = "6f1d2b3c-4d5e-4f6a-9b7c-8d9e0f1a2b3c";

conformance("functions and detached traces", [
  {
    name: "lookupFunction raises function_not_found for {id: null}",
    rule: "POST /api/sdk/functions/lookup",
    breaks: "lookup-null-ok",
    async run(ctx) {
      const error = await ctx.driver.callExpectingError("lookupFunction", { name: "missing" });
      expect(error.type).toBe("function_not_found");
      expect(ctx.recorder.of("functions-lookup")[0]!.json).toMatchObject({ name: "missing" });
    },
  },
  {
    name: "a function execution is recorded as an internal_trace carrier naming the function found",
    rule: "transport rule 1; internal_trace carriers",
    breaks: "function-trace-rest",
    setup: (recorder) => void recorder.functions.set("summarize", FUNCTION_ID),
    async run(ctx) {
      expect(await ctx.driver.call("lookupFunction", { name: "summarize" })).toEqual({ id: FUNCTION_ID });
      expect(await ctx.driver.call("functionTrace", { name: "summarize", input: { text: "long text" }, output: "short" })).toBeNull();
      expect(await ctx.flush()).toBe(true);
      const carriers = ctx.recorder.carriers((c) => c.operation === "internal_trace");
      expect(carriers).toHaveLength(1);
      const payload = carriers[0]!.payload;
      expect(payload.functionId).toBe(FUNCTION_ID);
      expect(containsValue(payload.inputs, "long text"), "inputs recorded").toBe(true);
      expect(String(payload.result)).toContain("short");
      expect(typeof payload.sdkVersion).toBe("string");
      expect(ctx.recorder.of("function-traces"), "not through the REST route").toHaveLength(0);
    },
  },
  {
    name: "a detached trace update is a PATCH whose rejection reaches the caller",
    rule: "PATCH /api/sdk/traces/{traceId}",
    breaks: "patch-swallowed",
    setup: (recorder) => void recorder.on("patch-trace", (_r, n) => (n === 0 ? undefined : { status: 404, body: { error: "not found", code: "not_found" } })),
    async run(ctx) {
      expect(await ctx.driver.call("updateTrace", { traceId: TRACE_ID, setName: "renamed" })).toBeNull();
      const patch = ctx.recorder.of("patch-trace")[0]!;
      expect(patch.path).toBe(`/api/sdk/traces/${TRACE_ID}`);
      expect(patch.json).toMatchObject({ setName: "renamed" });
      const error = await ctx.driver.callExpectingError("updateTrace", { traceId: TRACE_ID, mergeMetadata: { k: "v" } });
      expect(error.type).toBe("api_error");
      expect(error.details.status).toBe(404);
    },
  },
]);
