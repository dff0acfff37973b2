// `instrumentation.name` of a span (docs/api/ingestion.md, "Span payload"). Spans stored before the
// origin fields existed have it empty; their instrumentation resolves at read time from the source the SDK
// recorded them with (the trace's source: every span of an SDK trace carries it).

/** Sources of the SDKs' framework integrations (a regular expression, shared by SQL and TypeScript). */
export const FRAMEWORK_SOURCE_PATTERN = "(langgraph|claude-agent|openai-tracing|openai-agents|vercel-ai)";

const FRAMEWORKS: Array<[RegExp, string]> = [
  [/langgraph/, "langgraph"],
  [/claude-agent/, "claude-agent-sdk"],
  [/openai-(tracing|agents)/, "openai-agents"],
  [/vercel-ai/, "vercel-ai"],
];

/**
 * The stored instrumentation, or for a span stored without one, the framework integration its source names;
 * otherwise a wrapper span: `trace` for the root of its trace (the withTrace / @trace entry point), `span` below
 * it. Null when there is no source either (nothing to resolve from).
 */
export function resolveInstrumentation(stored: string | null, source: string | null, isRoot: boolean): string | null {
  if (stored) return stored;
  if (!source) return null;
  for (const [pattern, name] of FRAMEWORKS) if (pattern.test(source)) return name;
  return isRoot ? "trace" : "span";
}
