// The console's tRPC errors carry what the REST error body carries: a conflict with an existing record names it.
import { describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase } from "../../test/harness.ts";
import { signIn } from "../auth/sessions/sessions.service.ts";
import { SignInLimiter } from "../auth/sessions/sign-in-limiter.ts";
import { TEST_CONSOLE_ORIGIN } from "./testing.ts";
import { handleTrpc } from "./trpc.http.ts";

const host = new URL(TEST_CONSOLE_ORIGIN).host;

describe("the console API's error shape", () => {
  const db = useTestDatabase();

  it("answers a taken grader name with 409 and the existing grader's id, as REST does", async () => {
    const org = await createTestOrg(db());
    const { token } = await signIn(db(), new SignInLimiter(), { email: org.email, password: "correct horse battery" }, "203.0.113.1");
    const create = (config: unknown) =>
      call(handleTrpc, {
        path: "/api/trpc/graders.create",
        body: JSON.stringify({ json: { traceFunctionKey: "answer", name: "latency", kind: "rule", config } }),
        headers: { host, origin: TEST_CONSOLE_ORIGIN, "content-type": "application/json", cookie: `reprise_session=${token}` },
      });
    const first = await create({ check: { op: "maxDurationMs", value: 140 } });
    expect(first.status).toBe(200);
    const existingId = first.body.result.data.json.grader.id;

    const second = await create({ check: { op: "maxDurationMs", value: 99999 } });
    expect(second.status).toBe(409);
    expect(second.body.error.json.data).toMatchObject({ code: "CONFLICT", appCode: "conflict", fields: { existingId } });
  });
});
