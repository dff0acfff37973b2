// The one body reader for every /api/sdk/* route (docs/api.md, "Common rules": Bodies).
// Limits are enforced while reading: raw bytes are counted as they stream, and decompression stops
// at the cap (maxOutputLength), so a small gzip bomb is never inflated into memory.
import zlib from "node:zlib";
import type { Readable } from "node:stream";
import { promisify } from "node:util";
import { AppError } from "../errors.ts";
import { decodeUtf8Text } from "../shared/input-text.ts";

/** Decompressed request body ceiling (docs/api.md, "Common rules": Bodies). */
export const MAX_BODY_BYTES = 8_000_000;

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);

type Encoding = "identity" | "gzip" | "deflate";

export function parseContentEncoding(header: string | null): Encoding {
  const value = (header ?? "").trim().toLowerCase();
  if (value === "" || value === "identity" || value === "none") return "identity";
  if (value === "gzip" || value === "x-gzip") return "gzip";
  if (value === "deflate") return "deflate";
  throw new AppError(
    "unsupported_media_type",
    `Content-Encoding "${header}" is not supported; send the body uncompressed, or compressed with gzip or deflate.`,
  );
}

const tooLarge = () =>
  new AppError("payload_too_large", `The request body exceeds ${MAX_BODY_BYTES} bytes after decompression.`);

/** Reads, decompresses and size-checks a request body. */
export async function readBody(request: Request, limit: number = MAX_BODY_BYTES): Promise<Buffer> {
  return (await readBodyDeferred(request, limit)).inflate();
}

/** A body read off the wire but not yet decompressed: callers that bound memory inflate it when admitted. */
export interface DeferredBody {
  /** A guess of the decompressed size before inflating (text inflates about 4×), at most the limit. */
  estimatedBytes: number;
  /** Decompresses (once) and size-checks; 413 or 400 as readBody. */
  inflate(): Promise<Buffer>;
}

/** Checks the encoding (415) and reads the raw bytes (413 past the limit) without decompressing them. */
export async function readBodyDeferred(request: Request, limit: number = MAX_BODY_BYTES): Promise<DeferredBody> {
  const encoding = parseContentEncoding(request.headers.get("content-encoding"));
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (encoding === "identity" && Number.isFinite(declared)) {
    // An uncompressed body of a declared size is read only once admitted: eight 8 MB bodies waiting their
    // turn stay in the clients' sockets rather than in this process (bench/README.md, peak RSS).
    if (declared > limit) throw tooLarge();
    let read: Promise<Buffer> | undefined;
    return { estimatedBytes: declared, inflate: () => (read ??= readRaw(request, limit)) };
  }
  let raw: Buffer | undefined = await readRaw(request, limit);
  let inflated: Promise<Buffer> | undefined;
  return {
    estimatedBytes: encoding === "identity" ? raw.length : Math.min(limit, raw.length * 4),
    inflate() {
      // The compressed bytes are dropped once inflated, so only one copy stays reachable.
      inflated ??= decompress(raw!, encoding, limit).finally(() => (raw = undefined));
      return inflated;
    },
  };
}

async function decompress(raw: Buffer, encoding: Encoding, limit: number): Promise<Buffer> {
  if (encoding === "identity" || raw.length === 0) return raw;
  const options = { maxOutputLength: limit, chunkSize: outputChunkSize(raw.length) };
  try {
    if (encoding === "gzip") return await gunzip(raw, options);
    // "deflate" is meant to be zlib-wrapped (RFC 9110), but some clients send raw deflate.
    const zlibWrapped = raw.length >= 2 && (raw[0] & 0x0f) === 8 && ((raw[0] << 8) | raw[1]) % 31 === 0;
    return zlibWrapped ? await inflate(raw, options) : await inflateRaw(raw, options);
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge();
    throw new AppError("invalid_body_encoding", `The ${encoding} body is truncated or corrupt: ${(error as Error).message}`);
  }
}

/**
 * zlib's default 16 KB output chunks cost one main-thread callback and copy each: a 600 KB OTLP body
 * took ~40 of them, 8% of the server's main thread under load. Chunks sized from the compressed length
 * (text inflates about 4×) take one or two, without giving a tiny body a large buffer.
 */
function outputChunkSize(compressedBytes: number): number {
  return Math.min(1 << 20, Math.max(16 * 1024, compressedBytes * 4));
}

/**
 * Where the request gate leaves Node's stream of a request it serves itself (server/http/direct-route.ts): the
 * body is read off it as Buffers, without the Web stream Next.js would wrap around it. A symbol from the global
 * registry, because the gate and the routes may be bundled apart.
 */
export const NODE_BODY = Symbol.for("reprise.nodeBody");

async function readRaw(request: Request, limit: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  const node = (request as Request & { [NODE_BODY]?: Readable })[NODE_BODY];
  if (node) return readNodeRaw(node, limit);
  if (!request.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) throw tooLarge();
      chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    }
  } finally {
    if (total > limit) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return Buffer.concat(chunks, total);
}

/**
 * Reads a Node stream to its end, refusing past `limit`. Past the limit it stops listening rather than
 * destroying the stream, so the 413 can still be written on the same connection (Node discards the rest).
 */
function readNodeRaw(stream: Readable, limit: number): Promise<Buffer> {
  const gone = () => new AppError("bad_request", "The request body ended before it was complete (the client went away).");
  // Gone while the route authenticated: the stream will not say so again.
  if (stream.destroyed) return Promise.reject(gone());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const settle = (error: Error | null) => {
      stream.off("data", onData).off("end", onEnd).off("error", onClose).off("close", onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, total));
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) settle(tooLarge());
      else chunks.push(chunk);
    };
    const onEnd = () => settle(null);
    // The socket's own error (ECONNRESET) would read as the database being unreachable (503).
    const onClose = () => settle(gone());
    stream.on("data", onData).on("end", onEnd).on("error", onClose).on("close", onClose);
  });
}

/** Parses a JSON body; bad JSON is a 400 with a message a person can act on. */
export function parseJson(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  const text = decodeUtf8Text(body, "body");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError("invalid_json", `The request body is not valid JSON: ${(error as Error).message}`);
  }
}
