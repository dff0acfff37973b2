import { promisify } from "node:util";
import { gzip } from "node:zlib";

const gzipAsync = promisify(gzip);

/** Requests of this many bytes or more are candidates for gzip (docs/sdk-transport.md, rule 4). */
export const GZIP_THRESHOLD = 8_192;

/** A request body ready to send. */
export interface PreparedBody {
  body: Uint8Array;
  gzipped: boolean;
}

/**
 * Gzips a body of 8,192 bytes or more when that makes it smaller (docs/sdk-transport.md, rule 4). Best-effort: on
 * failure, or when compression is disabled, the original body is sent.
 */
export async function maybeGzip(body: Uint8Array, enabled: boolean): Promise<PreparedBody> {
  if (!enabled || body.byteLength < GZIP_THRESHOLD) return { body, gzipped: false };
  try {
    const compressed = await gzipAsync(body);
    return compressed.byteLength < body.byteLength ? { body: compressed, gzipped: true } : { body, gzipped: false };
  } catch {
    return { body, gzipped: false };
  }
}
