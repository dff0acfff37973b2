// Opaque paging cursors (docs/api.md, "Common rules": Paging):
// base64url of the sort key of the last row served. Clients must not build them; a damaged one is a 400.
import { AppError } from "../errors.ts";

export function encodeCursor(key: unknown): string {
  return Buffer.from(JSON.stringify(key), "utf8").toString("base64url");
}

/** Decodes a cursor and checks its shape with `isValid`; anything else is a 400 naming the parameter. */
export function decodeCursor<T>(cursor: string, isValid: (value: unknown) => value is T): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    value = undefined;
  }
  if (!isValid(value)) {
    throw new AppError("validation_failed", "Invalid request query: cursor is not a cursor this server returned", {
      issues: [{ path: "cursor", message: "not a cursor this server returned; send nextCursor unchanged" }],
    });
  }
  return value;
}
