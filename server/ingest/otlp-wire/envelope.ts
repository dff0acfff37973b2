// Reading an OTLP export request's envelope, shared by the carrier door (POST /api/sdk/otel/v1/traces) and the
// native OpenTelemetry doors (POST /v1/traces, /v1/logs). The envelope is validated before anything is stored:
// a body that is not the named message (not JSON, undecodable protobuf, a list field that is not a list of
// objects) is a 400 naming the field, and nothing is stored (docs/api/ingestion.md, "OTLP"; docs/otel.md,
// "The endpoints").
import { AppError } from "../../errors.ts";
import { assertInputText, decodeUtf8Text } from "../../shared/input-text.ts";

export type Obj = Record<string, unknown>;

export const isObject = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);

/** A field by its proto3 JSON (camelCase) name, else its original snake_case name. */
export const field = (o: Obj, camel: string, snake: string): unknown => (o[camel] !== undefined ? o[camel] : o[snake]);

export interface TOtlpEnvelope {
  /** The request's JSON body as an object (an empty body is not JSON), nested at most MAX_INPUT_DEPTH deep. */
  fromJson(body: Buffer): Obj;
  /** The request's protobuf body decoded by `decode`; bytes it cannot decode are a 400. */
  fromProtobuf<T>(body: Buffer, decode: (body: Buffer) => T): T;
  /** A list field of `parent` (absent means empty); `path` locates `parent` in error messages. */
  listOf(parent: Obj, camel: string, snake: string, path: string): Obj[];
}

/** The envelope reader of one OTLP message (`ExportTraceServiceRequest`, `ExportLogsServiceRequest`). */
export function otlpEnvelope(message: string): TOtlpEnvelope {
  const invalid = (path: string, problem: string) =>
    new AppError("validation_failed", `Not an OTLP ${message}: ${path} ${problem}`, { issues: [{ path, message: problem }] });
  return {
    fromJson(body) {
      let request: unknown;
      const text = decodeUtf8Text(body, "body");
      try {
        // An empty JSON body is no request at all (protobuf's empty message is a valid, empty export).
        if (text.trim() === "") throw new SyntaxError("the body is empty; send a JSON object ({} for an empty export)");
        request = JSON.parse(text);
      } catch (error) {
        throw new AppError("invalid_json", `The request body is not valid JSON: ${(error as Error).message}`);
      }
      assertInputText(request, { where: "body", depthOnly: true });
      if (!isObject(request)) throw invalid("(body)", "must be a JSON object");
      return request;
    },
    fromProtobuf(body, decode) {
      try {
        return decode(body);
      } catch (error) {
        throw new AppError("validation_failed", `Not an OTLP ${message}: the protobuf body cannot be decoded (${(error as Error).message})`);
      }
    },
    listOf(parent, camel, snake, path) {
      const value = parent[camel] ?? parent[snake];
      if (value === undefined || value === null) return [];
      if (!Array.isArray(value)) throw invalid(`${path}${camel}`, "must be a list");
      value.forEach((entry, i) => {
        if (!isObject(entry)) throw invalid(`${path}${camel}[${i}]`, "must be an object");
      });
      return value as Obj[];
    },
  };
}
