// The recorded span tree under one span, for mocking during replay (docs/replay.md, "Span tree"): children in start
// order, outputs inline unless asked not to. Spans the sim plan withheld content of are left out unless they
// recorded an error (docs/replay.md, "Complete"); their children move up to the nearest kept span.
import type { Database } from "../../db/client.ts";
import { notFound } from "../../errors.ts";
import { canonicalId } from "../../ids.ts";
import { isWithheld } from "../outline/outline.ts";
import { selectSpanTrace, selectTreeSpans, type TTreeSpanRow } from "./span-tree.queries.ts";
import { buildSubtree, type TreeNode } from "../../shared/tree.ts";
import type { TSpanTreeNode, TSpanTreeQuery } from "./span-tree.schemas.ts";

/**
 * `externalSpanId` is a canonical span id; an SDK span id that is not a UUID maps to its canonical id the way
 * ingestion derives it (docs/api.md, "Common rules": Ids), so it finds the same span. Unknown or foreign → 404.
 */
export async function getSpanTree(db: Database, organizationId: string, externalSpanId: string, query: TSpanTreeQuery) {
  const id = canonicalId(organizationId, externalSpanId);
  const span = await selectSpanTrace(db, organizationId, id);
  if (!span) throw notFound(`Span ${externalSpanId}`);
  const rows = await selectTreeSpans(db, organizationId, span.traceId, query.includeOutputs);
  // Spans imported from another platform (native OpenTelemetry, docs/otel.md) are never mocked on replay:
  // they are left out of the tree, and an imported root carries no recorded output.
  const root = buildSubtree(rows, id, (r) => !isWithheld(r) && !isImported(r));
  if (!root) throw notFound(`Span ${externalSpanId}`);
  return { root: toNode(root, query, true) };
}

function toNode(node: TreeNode<TTreeSpanRow>, query: TSpanTreeQuery, isRoot: boolean): TSpanTreeNode {
  const r = node.row;
  const withOutput = query.includeOutputs && (!isRoot || query.includeRootOutput) && !isImported(r);
  return {
    sourceSpanId: r.sourceSpanId,
    externalSpanId: r.id,
    traceFunctionKey: r.traceFunctionKey,
    spanName: r.name,
    type: r.type,
    ...(withOutput ? recordedOutput(r.rawSpan) : {}),
    children: node.children.map((c) => toNode(c, query, false)),
  };
}

/**
 * The stored span_data.output, with its superjson meta and the Python SDK's `output_serialized` when there are
 * any, verbatim (docs/sdk-transport.md, "Payloads": Values).
 */
function recordedOutput(rawSpan: unknown): { output: unknown; outputMeta?: unknown; outputSerialized?: unknown } {
  const data = isObject(rawSpan) && isObject(rawSpan.span_data) ? rawSpan.span_data : {};
  const meta = data.output_meta;
  const serialized = data.output_serialized;
  return {
    output: data.output ?? null,
    ...(meta !== undefined && meta !== null ? { outputMeta: meta } : {}),
    ...(isObject(serialized) ? { outputSerialized: serialized } : {}),
  };
}

/** Recorded by another platform's instrumentation, not by a Reprise SDK (docs/api/sim-plan.md; docs/otel.md). */
const isImported = (r: { payloadType: string }) => r.payloadType !== "sdk-function";

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
