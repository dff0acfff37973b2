import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import { parseJsonBody } from "../http/request.js";
import type { ResponseSummary } from "./types.js";

/**
 * Encodes carriers once each with OpenTelemetry's own serializers and assembles requests from the encoded pieces,
 * so the packer knows every request's exact size before building it (docs/sdk-transport.md, rule 3).
 */
export interface EnvelopeCodec {
  readonly contentType: string;
  /** Encodes one carrier. */
  encodeCarrier(span: ReadableSpan): Uint8Array;
  /** Exact size of a request holding `count` carriers whose encoded sizes sum to `carrierBytes`. */
  requestSize(carrierBytes: number, count: number): number;
  /** Builds the request body from encoded carriers. */
  assemble(carriers: Uint8Array[]): Uint8Array;
  /** Reads the response body. */
  readResponse(body: Buffer): ResponseSummary;
}

/** The codec of a delivery mode: OTLP/JSON for direct mode, OTLP/protobuf for a Collector. */
export function createEnvelopeCodec(encoding: "json" | "protobuf"): EnvelopeCodec {
  return encoding === "json" ? new JsonEnvelope() : new ProtobufEnvelope();
}

const SPANS_KEY = Buffer.from('"spans":[');
const COMMA = Buffer.from(",");

/**
 * OTLP/JSON with one `resourceSpans` and one `scopeSpans` entry, as docs/api/ingestion.md ("OTLP") shows. Each
 * carrier is serialized as a one-span request; its span object is cut out between the envelope's constant prefix and
 * suffix.
 */
class JsonEnvelope implements EnvelopeCodec {
  readonly contentType = "application/json";
  private prefix: Buffer | undefined;
  private suffix: Buffer | undefined;

  encodeCarrier(span: ReadableSpan): Uint8Array {
    const whole = Buffer.from(JsonTraceSerializer.serializeRequest([span]) ?? new Uint8Array());
    if (this.prefix === undefined) this.learnEnvelope(whole);
    const prefix = this.prefix as Buffer;
    const suffix = this.suffix as Buffer;
    const fits =
      whole.length > prefix.length + suffix.length &&
      whole.subarray(0, prefix.length).equals(prefix) &&
      whole.subarray(whole.length - suffix.length).equals(suffix);
    if (fits) return whole.subarray(prefix.length, whole.length - suffix.length);
    // A carrier from another resource or scope: fall back to re-encoding its span object.
    return Buffer.from(JSON.stringify(firstSpan(whole)));
  }

  requestSize(carrierBytes: number, count: number): number {
    this.ensureEnvelope();
    return (this.prefix as Buffer).length + (this.suffix as Buffer).length + carrierBytes + Math.max(0, count - 1);
  }

  assemble(carriers: Uint8Array[]): Uint8Array {
    this.ensureEnvelope();
    const parts: Uint8Array[] = [this.prefix as Buffer];
    carriers.forEach((carrier, index) => {
      if (index > 0) parts.push(COMMA);
      parts.push(carrier);
    });
    parts.push(this.suffix as Buffer);
    return Buffer.concat(parts);
  }

  readResponse(body: Buffer): ResponseSummary {
    return summarizeJsonResponse(parseJsonBody(body));
  }

  private ensureEnvelope(): void {
    if (this.prefix === undefined) throw new Error("envelope used before any carrier was encoded");
  }

  private learnEnvelope(whole: Buffer): void {
    const start = whole.indexOf(SPANS_KEY);
    if (start < 0) throw new Error("unexpected OTLP/JSON layout");
    const spanJson = Buffer.from(JSON.stringify(firstSpan(whole)));
    const end = start + SPANS_KEY.length + spanJson.length;
    if (!whole.subarray(start + SPANS_KEY.length, end).equals(spanJson)) throw new Error("unexpected OTLP/JSON layout");
    this.prefix = Buffer.from(whole.subarray(0, start + SPANS_KEY.length));
    this.suffix = Buffer.from(whole.subarray(end));
  }
}

function firstSpan(whole: Buffer): unknown {
  const parsed = JSON.parse(whole.toString("utf8")) as {
    resourceSpans: Array<{ scopeSpans: Array<{ spans: unknown[] }> }>;
  };
  return parsed.resourceSpans[0]?.scopeSpans[0]?.spans[0];
}

/** Reads `{}`, `{partialSuccess}`, `{error}` and Reprise's `traceIds` map (docs/sdk-transport.md, "Responses"). */
export function summarizeJsonResponse(body: unknown): ResponseSummary {
  if (body === null || typeof body !== "object") return { rejectedSpans: 0 };
  const record = body as Record<string, unknown>;
  const partial = (record.partialSuccess ?? {}) as Record<string, unknown>;
  const rejected = Number(partial.rejectedSpans ?? 0);
  return {
    error: typeof record.error === "string" ? record.error : undefined,
    rejectedSpans: Number.isFinite(rejected) ? rejected : 0,
    errorMessage: typeof partial.errorMessage === "string" ? partial.errorMessage : undefined,
    traceIds: isStringMap(record.traceIds) ? record.traceIds : undefined,
  };
}

function isStringMap(value: unknown): value is Record<string, string> {
  return value !== null && typeof value === "object" && Object.values(value).every((v) => typeof v === "string");
}

/**
 * OTLP/protobuf for Collector mode. Concatenating encoded messages merges them, and repeated fields append, so
 * one-span requests concatenate into a valid request with one `resourceSpans` entry per carrier.
 */
class ProtobufEnvelope implements EnvelopeCodec {
  readonly contentType = "application/x-protobuf";

  encodeCarrier(span: ReadableSpan): Uint8Array {
    return ProtobufTraceSerializer.serializeRequest([span]) ?? new Uint8Array();
  }

  requestSize(carrierBytes: number): number {
    return carrierBytes;
  }

  assemble(carriers: Uint8Array[]): Uint8Array {
    return Buffer.concat(carriers);
  }

  readResponse(body: Buffer): ResponseSummary {
    if (body.length === 0) return { rejectedSpans: 0 };
    try {
      const response = ProtobufTraceSerializer.deserializeResponse(body);
      const partial = response.partialSuccess;
      return { rejectedSpans: Number(partial?.rejectedSpans ?? 0), errorMessage: partial?.errorMessage };
    } catch {
      return { rejectedSpans: 0 };
    }
  }
}
