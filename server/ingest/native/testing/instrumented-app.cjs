// An application instrumented only with standard OpenTelemetry instrumentation (no Reprise SDK), run as
// its own Node.js process by the tests so the instrumentations patch `require` as they do in real apps.
// It exports with the official OTLP exporters configured the standard way: OTEL_EXPORTER_OTLP_ENDPOINT
// (the exporters append /v1/traces and /v1/logs), OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME.
// OpenLLMetry is set up as its README says instead: traceloop.initialize with a base URL and headers,
// and the model calls inside a Traceloop workflow (no application root span, no provider of ours).
// `otel-openai` runs @opentelemetry/instrumentation-openai's newest release on the OpenTelemetry JS 3.x line
// (api 1.10), which is installed apart, in the test/otel-js-3 workspace: the whole OpenTelemetry set (api,
// SDK, exporters, instrumentation) is then loaded from there, so one api instance is in play.
// `otel-openai-js2` runs the last release for the 2.x line (api 1.9) from the root, as the others do.
//   node instrumented-app.cjs <otel-openai|otel-openai-js2|openinference|vercel-ai|vercel-ai-legacy|openllmetry> <json|protobuf> <model base url>
const { AsyncLocalStorage } = require("node:async_hooks");
const { createRequire } = require("node:module");
const path = require("node:path");

const [library, format, modelUrl] = process.argv.slice(2);
/** Where the OpenTelemetry packages come from: the 3.x workspace for `otel-openai`, else the root. */
const otel = library === "otel-openai" ? createRequire(path.join(__dirname, "..", "..", "..", "..", "test", "otel-js-3", "package.json")) : require;
const api = otel("@opentelemetry/api");
const { TracerProvider, BatchSpanProcessor } = otel("@opentelemetry/sdk-trace");
const { LoggerProvider, BatchLogRecordProcessor } = otel("@opentelemetry/sdk-logs");

/** The context manager real apps get from @opentelemetry/context-async-hooks, in a few lines. */
class AsyncLocalStorageContextManager {
  constructor() { this.storage = new AsyncLocalStorage(); }
  active() { return this.storage.getStore() ?? api.ROOT_CONTEXT; }
  with(context, fn, thisArg, ...args) { return this.storage.run(context, () => fn.call(thisArg, ...args)); }
  bind(context, target) { return typeof target === "function" ? (...a) => this.with(context, target, undefined, ...a) : target; }
  enable() { return this; }
  disable() { this.storage.disable(); return this; }
}

const traceExporter = format === "protobuf"
  ? new (otel("@opentelemetry/exporter-trace-otlp-proto").OTLPTraceExporter)()
  : new (otel("@opentelemetry/exporter-trace-otlp-http").OTLPTraceExporter)();
const logExporter = format === "protobuf"
  ? new (otel("@opentelemetry/exporter-logs-otlp-proto").OTLPLogExporter)()
  : new (otel("@opentelemetry/exporter-logs-otlp-http").OTLPLogExporter)();
const { resourceFromAttributes } = otel("@opentelemetry/resources");
const resource = resourceFromAttributes({ "service.name": process.env.OTEL_SERVICE_NAME });
const tracerProvider = new TracerProvider({ resource, spanProcessors: [new BatchSpanProcessor({ exporter: traceExporter })] });
const loggerProvider = new LoggerProvider({ resource, processors: [new BatchLogRecordProcessor({ exporter: logExporter })] });
if (library !== "openllmetry") {
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  api.trace.setGlobalTracerProvider(tracerProvider);
}
const tracer = tracerProvider.getTracer("weather-app", "1.0.0");

const tools = [{ type: "function", function: { name: "get_weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } }];
const weather = ({ city }) => ({ city, celsius: 21 });

/** Two model calls around one tool call, through the official openai client. */
async function withOpenAi() {
  const OpenAI = require("openai");
  const client = new OpenAI({ baseURL: modelUrl, apiKey: "test-key" });
  const messages = [{ role: "system", content: "You answer weather questions." }, { role: "user", content: "Weather in Oslo?" }];
  const first = await client.chat.completions.create({ model: "fake-model-1", messages, tools });
  const call = first.choices[0].message.tool_calls[0];
  const result = await tracer.startActiveSpan("get_weather", async (span) => {
    try { return weather(JSON.parse(call.function.arguments)); } finally { span.end(); }
  });
  messages.push(first.choices[0].message, { role: "tool", tool_call_id: call.id, content: JSON.stringify(result) });
  const second = await client.chat.completions.create({ model: "fake-model-1", messages, tools });
  return second.choices[0].message.content;
}

/**
 * The AI SDK (v7): telemetry through @ai-sdk/otel's integration, registered once as its documentation
 * says: `OpenTelemetry` sends the GenAI conventions, `LegacyOpenTelemetry` the older ai.* attributes.
 */
async function withVercelAi(legacy) {
  const { generateText, tool, jsonSchema, stepCountIs, registerTelemetry } = require("ai");
  const { OpenTelemetry, LegacyOpenTelemetry } = require("@ai-sdk/otel");
  const { createOpenAICompatible } = require("@ai-sdk/openai-compatible");
  registerTelemetry(legacy ? new LegacyOpenTelemetry() : new OpenTelemetry());
  const provider = createOpenAICompatible({ name: "fake", baseURL: modelUrl, apiKey: "test-key", includeUsage: true });
  const { text } = await generateText({
    model: provider("fake-model-1"),
    system: "You answer weather questions.",
    prompt: "Weather in Oslo?",
    tools: { get_weather: tool({ description: "Weather of a city", inputSchema: jsonSchema(tools[0].function.parameters), execute: async (input) => weather(input) }) },
    stopWhen: stepCountIs(3),
    runtimeContext: { sessionId: "session-42" },
    telemetry: { functionId: "weather-bot", includeRuntimeContext: { sessionId: true } },
  });
  return text;
}

/** OpenLLMetry (@traceloop/node-server-sdk): its own provider and exporter, the calls in a workflow. */
async function withOpenLlmetry() {
  const traceloop = require("@traceloop/node-server-sdk");
  const [name, value] = process.env.OTEL_EXPORTER_OTLP_HEADERS.split("=");
  const baseUrl = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  traceloop.initialize({
    appName: process.env.OTEL_SERVICE_NAME,
    baseUrl,
    headers: { [name]: value },
    disableBatch: true,
    silenceInitializationMessage: true,
    traceloopSyncEnabled: false,
    // Its default exporter is OTLP/protobuf; the JSON run hands it the official JSON exporter.
    ...(format === "json" ? { exporter: new (require("@opentelemetry/exporter-trace-otlp-http").OTLPTraceExporter)({ url: `${baseUrl}/v1/traces`, headers: { [name]: value } }) } : {}),
    instrumentModules: { openAI: require("openai").OpenAI },
  });
  const OpenAI = require("openai");
  const client = new OpenAI({ baseURL: modelUrl, apiKey: "test-key" });
  const answer = await traceloop.withWorkflow({ name: "answer-question" }, async () => {
    const messages = [{ role: "system", content: "You answer weather questions." }, { role: "user", content: "Weather in Oslo?" }];
    const first = await client.chat.completions.create({ model: "fake-model-1", messages, tools });
    const call = first.choices[0].message.tool_calls[0];
    const result = await traceloop.withTool({ name: "get_weather" }, async () => weather(JSON.parse(call.function.arguments)));
    messages.push(first.choices[0].message, { role: "tool", tool_call_id: call.id, content: JSON.stringify(result) });
    const second = await client.chat.completions.create({ model: "fake-model-1", messages, tools });
    return second.choices[0].message.content;
  });
  await traceloop.forceFlush();
  process.stdout.write(JSON.stringify({ answer }) + "\n");
}

async function main() {
  if (library === "openllmetry") return withOpenLlmetry();
  let run;
  if (library === "otel-openai" || library === "otel-openai-js2") {
    const { OpenAIInstrumentation } = otel("@opentelemetry/instrumentation-openai");
    const instrumentation = new OpenAIInstrumentation({ captureMessageContent: true });
    instrumentation.setTracerProvider(tracerProvider);
    instrumentation.setLoggerProvider(loggerProvider);
    instrumentation.enable();
    run = withOpenAi;
  } else if (library === "openinference") {
    const { OpenAIInstrumentation } = require("@arizeai/openinference-instrumentation-openai");
    const instrumentation = new OpenAIInstrumentation({ tracerProvider });
    instrumentation.manuallyInstrument(require("openai"));
    run = withOpenAi;
  } else if (library === "vercel-ai" || library === "vercel-ai-legacy") {
    run = () => withVercelAi(library === "vercel-ai-legacy");
  } else throw new Error(`unknown library ${library}`);
  // The application's own root span, as an HTTP handler or a job would have.
  const answer = await tracer.startActiveSpan("answer-question", { attributes: { "reprise.trace_function": "weather-bot" } }, async (span) => {
    try { return await run(); } finally { span.end(); }
  });
  await tracerProvider.forceFlush();
  await loggerProvider.forceFlush();
  await tracerProvider.shutdown();
  await loggerProvider.shutdown();
  process.stdout.write(JSON.stringify({ answer, traceId: null }) + "\n");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
