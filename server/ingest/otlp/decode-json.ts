// OTLP/JSON ExportTraceServiceRequest → carriers. The envelope is validated before any carrier is
// processed: anything that is not an ExportTraceServiceRequest (not JSON, resourceSpans not a list,
// entries not objects) is a 400 and nothing is stored (decisions.md, "Precise rules").
import { AppError } from "../../errors.ts";
import { readCarrier, type TAttributeView, type TCarrier } from "./carriers.ts";

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

function invalid(path: string, message: string): AppError {
  return new AppError("validation_failed", `Not an OTLP ExportTraceServiceRequest: ${path} ${message}`, {
    issues: [{ path, message }],
  });
}

/** A list field, by its proto3 JSON name or its original snake_case name; absent means empty. */
function listOf(parent: Record<string, unknown>, camel: string, snake: string, path: string): Record<string, unknown>[] {
  const value = parent[camel] ?? parent[snake];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(`${path}${camel}`, "must be a list");
  value.forEach((entry, i) => {
    if (!isObject(entry)) throw invalid(`${path}${camel}[${i}]`, "must be an object");
  });
  return value as Record<string, unknown>[];
}

function attributeViews(span: Record<string, unknown>, path: string): TAttributeView[] {
  return listOf(span, "attributes", "attributes", path).map((a) => {
    const value = a.value;
    const stringValue = isObject(value) ? (value.stringValue ?? value.string_value) : undefined;
    return { key: typeof a.key === "string" ? a.key : "", stringValue: typeof stringValue === "string" ? stringValue : undefined };
  });
}

export function decodeOtlpJson(body: Buffer): TCarrier[] {
  let request: unknown;
  try {
    request = body.length === 0 ? {} : JSON.parse(body.toString("utf8"));
  } catch (error) {
    throw new AppError("invalid_json", `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(request)) throw invalid("(body)", "must be a JSON object");
  const carriers: TCarrier[] = [];
  listOf(request, "resourceSpans", "resource_spans", "").forEach((rs, i) => {
    listOf(rs, "scopeSpans", "scope_spans", `resourceSpans[${i}].`).forEach((ss, j) => {
      listOf(ss, "spans", "spans", `resourceSpans[${i}].scopeSpans[${j}].`).forEach((span, k) => {
        const location = `resourceSpans[${i}].scopeSpans[${j}].spans[${k}]`;
        const carrier = readCarrier(location, attributeViews(span, `${location}.`));
        if (carrier) carriers.push(carrier);
      });
    });
  });
  return carriers;
}
