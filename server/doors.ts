// The doors the server entry (server/main.ts) serves itself, before Next.js's router: ingestion's OTLP doors,
// each declared once here with its path, methods, body limit and handler. No app/**/route.ts serves these
// paths (server/doors.test.ts fails if one does); every other path goes to Next.js. They skip Next.js
// because its router, request context and response piping took about a tenth of the server's thread under
// sustained ingestion (bench/README.md, "Session 10"); `npm run dev`, `npm start`, the tests and the bench
// all run this same code (docs/architecture.md, "How a request flows").
import type { TDefinedRoute } from "./http/define-route.ts";
import { MAX_BODY_BYTES } from "./http/body.ts";
import { postOtlpTraces } from "./ingest/otlp/otlp.http.ts";
import { postNativeTraces } from "./ingest/native/native.http.ts";
import { postNativeLogs } from "./ingest/native/native-logs.http.ts";

export interface TDoor {
  path: string;
  /** The route for each method the door answers; the entry answers OPTIONS and refuses the others (405). */
  methods: Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", TDefinedRoute>>;
  /** Bytes of request body read at most, compressed or not (413 past it; docs/api.md, "Common rules"). */
  bodyLimit: number;
}

export const DOORS: readonly TDoor[] = [
  { path: "/api/sdk/otel/v1/traces", methods: { POST: postOtlpTraces }, bodyLimit: MAX_BODY_BYTES },
  { path: "/api/otel/v1/traces", methods: { POST: postNativeTraces }, bodyLimit: MAX_BODY_BYTES },
  { path: "/v1/traces", methods: { POST: postNativeTraces }, bodyLimit: MAX_BODY_BYTES },
  { path: "/api/otel/v1/logs", methods: { POST: postNativeLogs }, bodyLimit: MAX_BODY_BYTES },
  { path: "/v1/logs", methods: { POST: postNativeLogs }, bodyLimit: MAX_BODY_BYTES },
];

const BY_PATH = new Map(DOORS.map((door) => [door.path, door]));

/** The door at a request's path (its query left aside), if any. */
export function findDoor(url: string): TDoor | undefined {
  const query = url.indexOf("?");
  return BY_PATH.get(query < 0 ? url : url.slice(0, query));
}
