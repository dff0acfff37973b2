// Items → write plan: rows built, serialized once, deduplicated and merged. An item whose row cannot
// be serialized (JSON.stringify's stack gives out on nesting thousands of levels deep) is rejected
// here with a reason, and the rest of the batch goes on.
import { isUuid, newId } from "../../ids.ts";
import type { TPrice } from "../../insight/cost/pricing.ts";
import type { TIngestItem, TRejection } from "../ingest.schemas.ts";
import { memberText } from "./member-text.ts";
import { dedupeSpanRows, toSpanRow, type TSpanRow } from "./span-rows.ts";
import { mergeTraceRows, traceRowFromCompletion, traceStubFromSpan, type TTraceRow } from "./trace-rows.ts";
import type { TSerialized, TSerializedSpan, TWritePlan } from "./write-batch.ts";
import type { TFunctionExecutionRow } from "./write.queries.ts";

export interface TPreparedPlan {
  plan: TWritePlan;
  rejected: Map<number, TRejection>;
  /** Item index → [sourceTraceId, canonical trace id] for span and completion items. */
  traceOf: Map<number, [string, string]>;
  /** Item index → planned function execution id. */
  functionExecutionOf: Map<number, string>;
}

type Indexed<R> = { index: number; row: R };

const unstorable = (error: unknown): TRejection => ({
  code: "unstorable",
  message: `payload cannot be stored: ${(error as Error)?.message ?? String(error)}`,
});

function serialize<R>(row: R): { ok: true; json: string } | { ok: false; error: unknown } {
  try {
    return { ok: true, json: JSON.stringify(row) };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * A span row's JSON without its raw document, and the raw document's own JSON text: the text that was
 * sent, cut out of the payload's text when there is one (never serialized again: that costs more CPU than
 * all the rest, and keeps what was sent), else the parsed document serialized.
 */
function serializeSpan(row: TSpanRow, text: string | undefined): { ok: true; json: string; raw: string } | { ok: false; error: unknown } {
  const { raw_span: rawSpan, ...rest } = row;
  const head = serialize(rest);
  if (!head.ok) return head;
  const sent = text === undefined ? undefined : sentMember(text, "rawSpan");
  if (sent !== undefined) return { ok: true, json: head.json, raw: sent };
  const raw = serialize(rawSpan ?? null);
  return raw.ok ? { ok: true, json: head.json, raw: raw.json } : raw;
}

/** memberText, or undefined should the text not be the JSON it was parsed as. */
function sentMember(text: string, name: string): string | undefined {
  try {
    return memberText(text, name);
  } catch {
    return undefined;
  }
}

/** `prices`: the organization's model prices, which cost each LLM span (docs/cost.md, "Cost"). */
export function preparePlan(organizationId: string, items: TIngestItem[], prices: readonly TPrice[] = []): TPreparedPlan {
  const rejected = new Map<number, TRejection>();
  const traceOf = new Map<number, [string, string]>();
  const functionExecutionOf = new Map<number, string>();
  const spans: Array<Indexed<TSpanRow> & { json: string; raw: string }> = [];
  const completions: Indexed<TTraceRow>[] = [];
  const functions: TSerialized<TFunctionExecutionRow>[] = [];

  items.forEach((item, index) => {
    try {
      if (item.operation === "external_span") {
        const row = toSpanRow(organizationId, item.payload, item.raw, item.notes, prices);
        const s = serializeSpan(row, item.text);
        if (!s.ok) return void rejected.set(index, unstorable(s.error));
        spans.push({ index, row, json: s.json, raw: s.raw });
        traceOf.set(index, [row.source_trace_id, row.trace_id]);
      } else if (item.operation === "external_trace") {
        const row = traceRowFromCompletion(organizationId, item.payload, item.raw);
        completions.push({ index, row });
        traceOf.set(index, [row.source_trace_id, row.id]);
      } else {
        // A function id that is not a UUID cannot name any function: unknown, like a foreign one.
        if (!isUuid(item.functionId)) return void rejected.set(index, functionNotFound(item.functionId));
        const row = toFunctionExecutionRow(item);
        const s = serialize(row);
        if (!s.ok) return void rejected.set(index, unstorable(s.error));
        functions.push({ row, json: s.json });
        functionExecutionOf.set(index, row.id);
      }
    } catch (error) {
      rejected.set(index, unstorable(error));
    }
  });

  const traces = serializeTraces(spans, completions, rejected, traceOf);
  const winners: TSerializedSpan[] = dedupeSpanRows(spans).map(({ row, json, raw }) => ({ row, json, raw }));
  return { plan: { traces, spans: winners, functionExecutions: functions }, rejected, traceOf, functionExecutionOf };
}

export function functionNotFound(functionId: string): TRejection {
  return { code: "not_found", message: `function ${functionId} not found` };
}

function toFunctionExecutionRow(item: Extract<TIngestItem, { operation: "internal_trace" }>): TFunctionExecutionRow {
  const result = item.raw.result;
  return {
    id: newId(),
    function_id: item.functionId.toLowerCase(),
    result: result === undefined || result === null ? null : typeof result === "string" ? result : JSON.stringify(result),
    inputs: item.raw.inputs ?? null,
    raw_collector: item.raw.rawCollector ?? null,
    source: item.payload.source ?? null,
    sdk_version: item.payload.sdkVersion ?? null,
  };
}

/** Merges span stubs and completions per trace; a trace row that cannot be serialized rejects its completions. */
function serializeTraces(
  spans: Indexed<TSpanRow>[],
  completions: Indexed<TTraceRow>[],
  rejected: Map<number, TRejection>,
  traceOf: Map<number, [string, string]>,
): TSerialized<TTraceRow>[] {
  const stubs = spans.map((s) => traceStubFromSpan(s.row));
  const out: TSerialized<TTraceRow>[] = [];
  for (const row of mergeTraceRows([...stubs, ...completions.map((c) => c.row)])) {
    const s = serialize(row);
    if (s.ok) {
      out.push({ row, json: s.json });
      continue;
    }
    const culprits = completions.filter((c) => c.row.id === row.id);
    for (const c of culprits) {
      rejected.set(c.index, unstorable(s.error));
      traceOf.delete(c.index);
    }
    const fallback = mergeTraceRows(stubs.filter((stub) => stub.id === row.id));
    for (const stub of fallback) out.push({ row: stub, json: JSON.stringify(stub) });
  }
  return out.sort((a, b) => (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0));
}
