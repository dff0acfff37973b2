// Opaque keyset cursor of the trace list: the last row's started_at (epoch microseconds, or null for a trace
// without a start time) and id. Keyset paging never repeats or skips a row while traces keep arriving.
import { z } from "zod";
import { AppError } from "../errors.ts";

const ZCursor = z.object({
  // Bounded so the SQL cast can never overflow: ±2^53 microseconds is ±285 years around 1970.
  t: z.string().regex(/^-?\d{1,16}$/).refine((s) => Math.abs(Number(s)) <= Number.MAX_SAFE_INTEGER).nullable(),
  i: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
});

export interface TTraceCursor {
  startedUs: string | null;
  id: string;
}

export function encodeTraceCursor(c: TTraceCursor): string {
  return Buffer.from(JSON.stringify({ t: c.startedUs, i: c.id })).toString("base64url");
}

/** Decodes a cursor from a previous page; anything else is a 400. */
export function decodeTraceCursor(cursor: string): TTraceCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    value = undefined;
  }
  const parsed = ZCursor.safeParse(value);
  if (!parsed.success) {
    throw new AppError("validation_failed", "Invalid request query: cursor: not a cursor returned by this endpoint", {
      issues: [{ path: "cursor", message: "not a cursor returned by this endpoint" }],
    });
  }
  return { startedUs: parsed.data.t, id: parsed.data.i };
}
