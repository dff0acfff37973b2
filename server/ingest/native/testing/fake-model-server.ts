// A local OpenAI-compatible Chat Completions server (tests): it asks for the get_weather tool once when
// tools are offered, then answers from the tool's result. Usage is fixed so stored tokens can be checked.
import http from "node:http";
import type { AddressInfo } from "node:net";

export const FAKE_MODEL = "fake-model-1";
export const FAKE_USAGE = { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27, prompt_tokens_details: { cached_tokens: 3 } };
export const FAKE_ANSWER = "It is 21 degrees in Oslo.";

export interface FakeModelServer {
  /** Base URL ending in /v1, as OpenAI clients take it. */
  baseUrl: string;
  requests: Array<{ messages: Array<{ role: string }>; tools?: unknown[] }>;
  close(): Promise<void>;
}

export async function startFakeModelServer(): Promise<FakeModelServer> {
  const requests: FakeModelServer["requests"] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const body = JSON.parse(raw || "{}");
      requests.push(body);
      const answered = (body.messages ?? []).some((m: { role: string }) => m.role === "tool");
      const wantsTool = Array.isArray(body.tools) && body.tools.length > 0 && !answered;
      const message = wantsTool
        ? { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: JSON.stringify({ city: "Oslo" }) } }] }
        : { role: "assistant", content: FAKE_ANSWER };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({
        id: `chatcmpl-${++n}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: FAKE_MODEL,
        choices: [{ index: 0, message, finish_reason: wantsTool ? "tool_calls" : "stop" }],
        usage: FAKE_USAGE,
      }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
