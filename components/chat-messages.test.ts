// The payload shapes that get the trace page's chat view: where SDKs and the common LLM clients put messages.
import { describe, expect, it } from "vitest";
import { findMessages } from "./chat-messages.ts";

const user = { role: "user", content: "What is 2+2?" };
const system = { role: "system", content: "Be brief." };

describe("findMessages", () => {
  it("reads a message list, alone or under `messages`", () => {
    expect(findMessages([system, user])).toEqual([system, user]);
    expect(findMessages({ messages: [user] })).toEqual([user]);
  });

  it("reads the SDK's argument list whatever its length: llm(messages, model), llm(model, messages), llm({model, messages})", () => {
    expect(findMessages([[system, user], "gpt-4o"])).toEqual([system, user]);
    expect(findMessages(["gpt-4o", [user], { temperature: 0 }])).toEqual([user]);
    expect(findMessages([{ model: "gpt-4o", messages: [user] }])).toEqual([user]);
    // Python's keyword arguments arrive as a trailing object.
    expect(findMessages(["prompt-v2", { model: "gpt-4o", messages: [user] }])).toEqual([user]);
  });

  it("reads an OpenAI chat request and its reply", () => {
    const request = { model: "gpt-4o", temperature: 0, messages: [system, user, { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "add", arguments: "{}" } }] }] };
    const found = findMessages(request)!;
    expect(found.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    expect(found[2]!.content).toContain('"name": "add"');
    const reply = { id: "chatcmpl-1", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "4" }, finish_reason: "stop" }] };
    expect(findMessages(reply)).toEqual([{ role: "assistant", content: "4" }]);
  });

  it("reads an Anthropic request (its system first, content blocks as text) and its reply", () => {
    const request = { model: "claude-sonnet-4", max_tokens: 100, system: "Be brief.", messages: [{ role: "user", content: [{ type: "text", text: "What is 2+2?" }] }] };
    expect(findMessages(request)).toEqual([system, user]);
    const reply = { id: "msg_1", type: "message", role: "assistant", content: [{ type: "text", text: "Let me add." }, { type: "tool_use", id: "t1", name: "add", input: { a: 2, b: 2 } }] };
    expect(findMessages(reply)).toEqual([{ role: "assistant", content: 'Let me add.\ntool call: add {"a":2,"b":2}' }]);
  });

  it("reads the OpenAI Responses API (instructions and input; output messages among other items) and Gemini's contents", () => {
    expect(findMessages({ model: "gpt-4o", instructions: "Be brief.", input: "What is 2+2?" })).toEqual([system, user]);
    expect(findMessages({ model: "gpt-4o", input: [{ role: "user", content: [{ type: "input_text", text: "What is 2+2?" }] }] })).toEqual([user]);
    const output = { output: [{ type: "reasoning", summary: [] }, { type: "message", role: "assistant", content: [{ type: "output_text", text: "4" }] }] };
    expect(findMessages(output)).toEqual([{ role: "assistant", content: "4" }]);
    expect(findMessages({ contents: [{ role: "user", parts: [{ text: "What is 2+2?" }] }] })).toEqual([user]);
  });

  it("reads a single reply message, bare or under `message`", () => {
    expect(findMessages({ role: "assistant", content: "4" })).toEqual([{ role: "assistant", content: "4" }]);
    expect(findMessages({ model: "llama3", message: { role: "assistant", content: "4" } })).toEqual([{ role: "assistant", content: "4" }]);
  });

  it("offers no chat view for payloads that hold no messages", () => {
    for (const value of [null, "text", 42, [], ["a", 1], [{ role: "admin" }], { input: "no model, so not a request" }, { input: 3 }, { choices: [1, 2] }, { output: "4" }]) {
      expect(findMessages(value)).toBeNull();
    }
  });
});
