import { langchainMessage, toPlain } from "../core/plain.js";
import { contextList, num, record, str } from "../core/values.js";

/** LangChain's tag on runs that only the framework needs to see (LangGraph's scheduler writes and branches). */
export const HIDDEN_TAG = "langsmith:hidden";

/** The tag LangGraph puts on each node's run (`graph:step:3`). */
const NODE_TAG = /^graph:step:\d+$/;

/** The graph node a run is, when it is one (a run tagged `graph:step:N`): its `langgraph_node`. */
export function nodeOf(tags: string[] | undefined, metadata: Record<string, unknown> | undefined): string | undefined {
  return tags?.some((tag) => NODE_TAG.test(tag)) ? str(metadata?.langgraph_node) : undefined;
}

/**
 * A run that may be a conditional edge's router: a plain function (LangGraph coerces a path such as
 * `toolsCondition` to a `RunnableLambda`) run directly inside a node's run, for that same node. LangGraph
 * runs it after the node's body, with the node's callbacks and without the hidden tag, so only its answer
 * tells it from a function the node's body ran: see `isRoute`.
 */
export function mayBeRouter(serialized: unknown, metadata: Record<string, unknown> | undefined, parentNode: string | undefined): boolean {
  const id = record(serialized)?.id;
  const kind = Array.isArray(id) ? id[id.length - 1] : undefined;
  return kind === "RunnableLambda" && parentNode !== undefined && str(metadata?.langgraph_node) === parentNode;
}

/** A router's answer: a destination's name, a `Send`, or a list of them (`{output: …}` as callbacks see it). */
export function isRoute(outputs: unknown): boolean {
  const value = record(outputs) && "output" in record(outputs)! ? record(outputs)!.output : outputs;
  const destination = (v: unknown) => typeof v === "string" || (record(v) !== undefined && typeof record(v)!.node === "string" && "args" in record(v)!);
  return Array.isArray(value) ? value.length > 0 && value.every(destination) : destination(value);
}

/** LangGraph's run metadata keys, kept on chain and tool spans as one context. */
const GRAPH_KEYS = ["langgraph_step", "langgraph_node", "langgraph_triggers", "langgraph_path", "langgraph_checkpoint_ns"];

/** Plain data of a callback argument (messages become `{role, content, …}`). */
export function plain(value: unknown): unknown {
  return toPlain(value, langchainMessage);
}

/** The name LangChain shows for a run: its run name, else the serialized class name. */
export function runName(serialized: unknown, name: string | undefined, fallback: string): string {
  if (name) return name;
  const s = record(serialized);
  const id = Array.isArray(s?.id) ? s.id : [];
  return str(s?.name) ?? str(id[id.length - 1]) ?? fallback;
}

/** The `langgraph_*` metadata of a run, as a context (none outside a graph). */
export function graphContext(metadata: Record<string, unknown> | undefined): Array<Record<string, unknown>> {
  if (!metadata) return [];
  return contextList(Object.fromEntries(GRAPH_KEYS.map((key) => [key, toPlain(metadata[key])])));
}

/** The model a chat model or LLM run was asked for. */
export function requestedModel(extraParams: Record<string, unknown> | undefined, metadata: Record<string, unknown> | undefined): string | undefined {
  const invocation = record(extraParams?.invocation_params);
  return str(invocation?.model) ?? str(invocation?.model_name) ?? str(metadata?.ls_model_name);
}

/** Model and token usage of a finished LLM run: message `usage_metadata` first, else the provider's `llmOutput`. */
export function llmContext(output: unknown, requested: string | undefined): Array<Record<string, unknown>> {
  const result = record(output);
  const generations = (Array.isArray(result?.generations) ? result.generations : []).flat() as unknown[];
  let input: number | undefined;
  let out: number | undefined;
  let total: number | undefined;
  let model: string | undefined;
  for (const generation of generations) {
    const message = record(record(generation)?.message);
    const usage = record(message?.usage_metadata);
    if (usage) {
      input = (input ?? 0) + (num(usage.input_tokens) ?? 0);
      out = (out ?? 0) + (num(usage.output_tokens) ?? 0);
      total = (total ?? 0) + (num(usage.total_tokens) ?? 0);
    }
    model ??= str(record(message?.response_metadata)?.model_name) ?? str(record(message?.response_metadata)?.model);
  }
  if (input === undefined) {
    const llmOutput = record(result?.llmOutput);
    const usage = record(llmOutput?.tokenUsage) ?? record(llmOutput?.estimatedTokenUsage);
    input = num(usage?.promptTokens);
    out = num(usage?.completionTokens);
    total = num(usage?.totalTokens);
  }
  return contextList({ model: model ?? requested, inputTokens: input, outputTokens: out, totalTokens: total });
}

/** What an LLM run produced: the generated messages (or texts). */
export function llmOutput(output: unknown): unknown {
  const generations = (record(output)?.generations ?? []) as unknown[][];
  const flat = generations.flat().map((g) => {
    const generation = record(g);
    return generation?.message !== undefined ? plain(generation.message) : generation?.text;
  });
  return flat.length === 1 ? flat[0] : flat;
}
