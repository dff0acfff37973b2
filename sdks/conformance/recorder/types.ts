import type http from "node:http";

/** A carrier span decoded from an OTLP request (OTLP/JSON or OTLP/protobuf). */
export interface Carrier {
  /** `reprise.operation` (or `bitfab.operation`): `external_span`, `external_trace` or `internal_trace`. */
  operation: string;
  /** `reprise.payload` parsed as JSON (undefined when it is not JSON). */
  payload: Record<string, any>;
  /** `reprise.payload` exactly as it arrived. */
  payloadText: string;
  /** Keys of every attribute of the carrier span, in order. */
  attributeKeys: string[];
  /** The carrier span's own OTel ids and name (unrelated to the ids inside the payload). */
  otelTraceId: string;
  otelSpanId: string;
  otelParentSpanId: string;
  name: string;
  /** OTLP status code of the carrier span (0 unset, 1 ok, 2 error). */
  statusCode: number;
  /** Resource attributes of the carrier's `resourceSpans` entry. */
  resource: Record<string, unknown>;
  scopeName: string;
}

/** One request exactly as the recorder received it. */
export interface RecordedRequest {
  /** Order of arrival, from 0. */
  seq: number;
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  /** Which scripted route answered it (`otlp`, `collector`, `sim-plan`, `replay-start`, … or `unknown`). */
  route: string;
  headers: http.IncomingHttpHeaders;
  /** Body bytes as sent on the wire (possibly gzipped). */
  raw: Buffer;
  /** Body after `Content-Encoding` was undone. */
  body: Buffer;
  /** Carriers of an OTLP request (empty for other routes or undecodable bodies). */
  carriers: Carrier[];
  /** Why the body could not be decoded, when it could not. */
  decodeError?: string;
  /** Epoch milliseconds: headers received, body complete, answer written (or socket reset). */
  receivedAt: number;
  bodyAt: number;
  answeredAt?: number;
  /** When the client closed the connection before the recorder answered (client-side timeout). */
  abortedAt?: number;
  /** The status the recorder answered with (undefined when it reset or never answered). */
  status?: number;
  /** Parsed JSON body of non-OTLP requests. */
  json?: any;
}

/**
 * How to answer one request. The default of every route answers 2xx with a sensible body; scenarios replace it
 * per route with a function of the request and its index on that route.
 */
export interface Action {
  status?: number;
  headers?: Record<string, string>;
  /** JSON body (objects are serialized; strings and Buffers are sent as they are). */
  body?: unknown;
  /** Waits this long before answering. */
  delayMs?: number;
  /** Destroys the connection without answering. */
  reset?: boolean;
  /** Never answers (until the recorder stops or the client gives up). */
  hang?: boolean;
}

/** Answers a request; `n` is its index among the requests of the same route (0 for the first). */
export type Responder = (request: RecordedRequest, n: number) => Action | undefined | Promise<Action | undefined>;
