// Finds the LLM messages a span payload holds, wherever the common shapes put them (docs/console.md,
// "Trace page"): a message list; a request object's `messages` (OpenAI chat, Anthropic, with Anthropic's
// `system` first), `input` and `instructions` (OpenAI Responses) or `contents` (Gemini); any argument of the
// SDKs' argument list (`llm(messages, model)`, `llm(model, messages)`, Python's trailing keyword object);
// and replies: OpenAI's `choices`, the Responses API's `output`, a `message`, or one `{role, content}`.
// Pure, so the shapes are unit-tested (chat-messages.test.ts).

export interface TChatMessage {
  role: string;
  content: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Text of a message's content: a string, text parts joined, tool calls named, anything else as JSON. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(partText).join("\n");
  if (content === null || content === undefined) return "";
  return JSON.stringify(content, null, 2);
}

function partText(p: unknown): string {
  if (typeof p === "string") return p;
  if (isObj(p) && typeof p.text === "string") return p.text;
  if (isObj(p) && p.type === "tool_use" && typeof p.name === "string") return `tool call: ${p.name} ${JSON.stringify(p.input ?? {})}`;
  if (isObj(p) && p.type === "tool_result") return `tool result: ${contentText(p.content)}`;
  return JSON.stringify(p);
}

const isMessage = (m: unknown): m is Obj =>
  isObj(m) && typeof m.role === "string" && ("content" in m || "tool_calls" in m || "parts" in m);

function toMessage(m: Obj): TChatMessage {
  const text = contentText(m.content ?? m.parts ?? null);
  const calls = m.tool_calls ? `${text ? "\n" : ""}tool calls: ${JSON.stringify(m.tool_calls, null, 2)}` : "";
  return { role: m.role as string, content: text + calls };
}

/** A list whose items are all messages (the Responses API's output may also hold non-message items). */
function asMessages(v: unknown, skipOthers = false): TChatMessage[] | null {
  if (!Array.isArray(v) || v.length === 0) return null;
  const messages = skipOthers ? v.filter(isMessage) : v;
  if (messages.length === 0 || !messages.every(isMessage)) return null;
  return messages.map(toMessage);
}

/** A request or reply object's messages: the shapes of OpenAI (chat, Responses), Anthropic and Gemini. */
function fromObject(o: Obj): TChatMessage[] | null {
  const listed = asMessages(o.messages) ?? asMessages(o.contents);
  if (listed) {
    const system = typeof o.system === "string" || Array.isArray(o.system) ? contentText(o.system) : null;
    return system ? [{ role: "system", content: system }, ...listed] : listed;
  }
  const instructions = typeof o.instructions === "string" && o.instructions ? [{ role: "system", content: o.instructions }] : [];
  if (typeof o.input === "string" && (instructions.length || typeof o.model === "string")) return [...instructions, { role: "user", content: o.input }];
  const input = asMessages(o.input, true);
  if (input) return [...instructions, ...input];
  if (Array.isArray(o.choices)) {
    const replies = o.choices.flatMap((c) => (isObj(c) && isMessage(c.message) ? [toMessage(c.message)] : []));
    if (replies.length) return replies;
  }
  const output = asMessages(o.output, true);
  if (output) return output;
  if (isMessage(o.message)) return [toMessage(o.message)];
  if (isMessage(o)) return [toMessage(o)];
  return null;
}

function fromValue(v: unknown): TChatMessage[] | null {
  return asMessages(v) ?? (isObj(v) ? fromObject(v) : null);
}

/** The LLM messages a payload holds, if it is a chat: the value itself, else the first argument that holds some. */
export function findMessages(value: unknown): TChatMessage[] | null {
  const direct = fromValue(value);
  if (direct) return direct;
  if (!Array.isArray(value)) return null;
  for (const argument of value) {
    const found = fromValue(argument);
    if (found) return found;
  }
  return null;
}
