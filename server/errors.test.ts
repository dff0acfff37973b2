// The outage classification every surface uses: which failures are "the database is not there right now"
// (503 + Retry-After) and which are bugs (500) or bad input (400) (docs/api.md, "Common rules").
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./errors.ts";

const pgError = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["08006 connection failure", pgError("08006")],
    ["08001 unable to connect", pgError("08001")],
    ["53300 too many connections", pgError("53300")],
    ["55000 not accepting connections", pgError("55000", 'database "x" is not currently accepting connections')],
    ["57P01 admin shutdown", pgError("57P01")],
    ["57P02 crash shutdown", pgError("57P02")],
    ["57P03 cannot connect now", pgError("57P03")],
    ["a socket refusal", pgError("ECONNREFUSED")],
    ["the pg driver's terminated connection", new Error("Connection terminated unexpectedly")],
    ["Prisma's cannot-reach", pgError("P1001")],
    ["a driver-adapter error wrapping a SQLSTATE", new Error("refused", { cause: { kind: "postgres", code: "55000", originalCode: "55000" } })],
    ["a driver-adapter kind", new Error("closed", { cause: { kind: "ConnectionClosed" } })],
    ["Prisma's known error carrying the adapter's", Object.assign(new Error("x"), { code: "P2010", meta: { driverAdapterError: { cause: { originalCode: "57P01" } } } })],
  ])("counts %s as an outage", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a syntax error", pgError("42601")],
    ["a unique violation", pgError("23505")],
    ["a data exception", pgError("22P02")],
    ["a plain bug", new TypeError("x is undefined")],
    ["nothing", undefined],
  ])("does not count %s", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
