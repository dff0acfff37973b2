// Local stand-ins for the OpenAI and Anthropic model APIs, so each framework runs for real and offline. The model
// is scripted for a two-step agent: offered tools and no tool result yet, it asks for `get_weather`
// ({city: "Paris"}) (or first the handoff tool, when one is offered); otherwise it answers in text (JSON when a response format is asked for). Paths under /fail/
// answer 400.
import http from "node:http";
import type { AddressInfo } from "node:net";

export const TOOL_NAME = "get_weather";
export const FINAL_TEXT = "It is sunny in Paris.";
/** Token usage every fake model call reports. */
export const USAGE = { input: 11, output: 7 };
/** The JSON text answered when a response format is asked for. */
export const OBJECT = { city: "Paris", forecast: "sunny" };

export interface FakeModelServer {
  url: string;
  /** Paths and parsed bodies of the model requests, in order. */
  requests: Array<{ path: string; body: any }>;
  close(): Promise<void>;
}

type Respond = (path: string, body: any, res: http.ServerResponse) => boolean;

async function serve(respond: Respond): Promise<FakeModelServer> {
  const requests: FakeModelServer["requests"] = [];
  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0] ?? "";
      let body: any = {};
      try {
        body = text ? JSON.parse(text) : {};
      } catch {
        // not JSON: answered as an unknown route below
      }
      requests.push({ path, body });
      if (path.startsWith("/fail/")) return json(res, 400, { error: { type: "invalid_request_error", message: "scripted failure" } });
      if (!respond(path, body, res)) json(res, 404, { error: { type: "not_found_error", message: `no route ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function sse(res: http.ServerResponse, events: Array<{ event?: string; data: unknown }>, done = false): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const e of events) res.write(`${e.event ? `event: ${e.event}\n` : ""}data: ${JSON.stringify(e.data)}\n\n`);
  if (done) res.write("data: [DONE]\n\n");
  res.end();
}

const hasToolResult = (body: unknown) => /tool_result|function_call_output|"role":"tool"/.test(JSON.stringify(body));
/** A handoff tool offered by the OpenAI Agents SDK (`transfer_to_<agent>`), which the model takes first. */
const offeredHandoff = (body: any): string | undefined =>
  (Array.isArray(body.tools) ? body.tools : []).map((t: any) => String(t.name ?? t.function?.name ?? "")).find((name: string) => name.startsWith("transfer_to_"));

/** True when the model should answer (not call the tool): no tools offered, or a tool result already there. */
const answers = (body: any, conversation: unknown) => !(Array.isArray(body.tools) && body.tools.length > 0) || hasToolResult(conversation);

/** An OpenAI-compatible server: the Responses API and Chat Completions (plain and streamed). */
export function startFakeOpenAI(): Promise<FakeModelServer> {
  let n = 0;
  return serve((path, body, res) => {
    n += 1;
    const answered = answers(body, body);
    const text = body.response_format || body.text?.format?.type === "json_schema" ? JSON.stringify(OBJECT) : FINAL_TEXT;
    const model = String(body.model ?? "fake-model");
    if (path.endsWith("/responses")) {
      const output = answered
        ? [{ type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }]
        : [{ type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: offeredHandoff(body) ?? TOOL_NAME, arguments: offeredHandoff(body) ? "{}" : '{"city":"Paris"}', status: "completed" }];
      json(res, 200, {
        id: `resp_${n}`,
        object: "response",
        created_at: Math.floor(Date.now() / 1000),
        model,
        status: "completed",
        output,
        usage: { input_tokens: USAGE.input, output_tokens: USAGE.output, total_tokens: USAGE.input + USAGE.output, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
      });
      return true;
    }
    if (!path.endsWith("/chat/completions")) return false;
    const toolCall = { id: `call_${n}`, type: "function", function: { name: TOOL_NAME, arguments: '{"city":"Paris"}' } };
    const usage = { prompt_tokens: USAGE.input, completion_tokens: USAGE.output, total_tokens: USAGE.input + USAGE.output };
    const base = { id: `chatcmpl_${n}`, created: Math.floor(Date.now() / 1000), model };
    if (!body.stream) {
      const message = answered ? { role: "assistant", content: text } : { role: "assistant", content: null, tool_calls: [toolCall] };
      json(res, 200, { ...base, object: "chat.completion", choices: [{ index: 0, message, finish_reason: answered ? "stop" : "tool_calls" }], usage });
      return true;
    }
    const chunk = (delta: unknown, finish: string | null = null) => ({ data: { ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] } });
    const deltas = answered
      ? [chunk({ role: "assistant", content: "" }), chunk({ content: text.slice(0, 10) }), chunk({ content: text.slice(10) }), chunk({}, "stop")]
      : [chunk({ role: "assistant", tool_calls: [{ index: 0, ...toolCall }] }), chunk({}, "tool_calls")];
    sse(res, [...deltas, { data: { ...base, object: "chat.completion.chunk", choices: [], usage } }], true);
    return true;
  });
}

/** An Anthropic Messages API server (streamed, as Claude Code asks), with `count_tokens`; `toolName` is the tool it calls. */
export function startFakeAnthropic(toolName = TOOL_NAME): Promise<FakeModelServer> {
  let n = 0;
  return serve((path, body, res) => {
    if (path.endsWith("/messages/count_tokens")) {
      json(res, 200, { input_tokens: USAGE.input });
      return true;
    }
    if (!path.endsWith("/messages")) return false;
    n += 1;
    const answered = answers(body, body.messages);
    const tool = toolName;
    const content = answered ? [{ type: "text", text: FINAL_TEXT }] : [{ type: "tool_use", id: `toolu_${n}`, name: tool, input: { city: "Paris" } }];
    const usage = { input_tokens: USAGE.input, output_tokens: USAGE.output, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    const message = { id: `msg_${n}`, type: "message", role: "assistant", model: body.model, content, stop_reason: answered ? "end_turn" : "tool_use", stop_sequence: null, usage };
    if (!body.stream) {
      json(res, 200, message);
      return true;
    }
    const events: Array<{ event: string; data: unknown }> = [
      { event: "message_start", data: { type: "message_start", message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } } },
    ];
    content.forEach((block, index) => {
      const start = block.type === "text" ? { type: "text", text: "" } : { ...block, input: {} };
      const delta = block.type === "text" ? { type: "text_delta", text: (block as { text: string }).text } : { type: "input_json_delta", partial_json: JSON.stringify((block as { input: unknown }).input) };
      events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: start } });
      events.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta } });
      events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    });
    events.push({ event: "message_delta", data: { type: "message_delta", delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: USAGE.output } } });
    events.push({ event: "message_stop", data: { type: "message_stop" } });
    sse(res, events);
    return true;
  });
}
