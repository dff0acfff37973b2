import type { FrameworkRecorder, FrameworkSpan } from "../core/framework-recorder.js";
import { toPlain } from "../core/plain.js";
import { record, str } from "../core/values.js";
import { type Block, blocksOf, resultError, resultSummary, toolResultOutput, turnContext } from "./message-mapping.js";

/** An assistant turn being recorded: one model response, which Claude Code may deliver as several messages. */
interface Turn {
  span: FrameworkSpan;
  messageId: string | undefined;
  model: unknown;
  usage: Record<string, unknown> | undefined;
  /** Usage from the stream's `message_delta` (final output tokens), which wins over the assistant messages'. */
  finalUsage: Record<string, unknown> | undefined;
  content: unknown[];
}

/** Where turns and tool calls of one agent (the main one, or a subagent under its Task tool call) go. */
interface Lane {
  parent: FrameworkSpan;
  turn: Turn | undefined;
  lastEventAt: Date;
  lastUserContent: unknown;
}

/**
 * Turns the messages of one `query()` into spans: the query (`agent`), each assistant turn (`llm`, with model
 * and usage) and each tool use (`function`, ended by its tool result). Subagent messages nest under the tool call
 * that started them.
 */
export class QueryObserver {
  private readonly lanes = new Map<string, Lane>();
  private readonly tools = new Map<string, FrameworkSpan>();
  private model: unknown;
  private summary: Record<string, unknown> | undefined;
  private failure: Error | undefined;
  private finished = false;

  constructor(
    private readonly recorder: FrameworkRecorder,
    private readonly root: FrameworkSpan,
    prompt: unknown,
  ) {
    this.lanes.set("", { parent: root, turn: undefined, lastEventAt: new Date(), lastUserContent: prompt });
  }

  /** Reads one message the consumer is about to receive. */
  observe(message: unknown): void {
    this.recorder.guard(() => {
      const m = record(message);
      if (m === undefined || this.finished) return;
      if (m.type === "system" && m.subtype === "init") this.onInit(m);
      else if (m.type === "assistant") this.onAssistant(m);
      else if (m.type === "user") this.onUser(m);
      else if (m.type === "stream_event") this.onStreamEvent(m);
      else if (m.type === "result") this.onResult(m);
    });
  }

  /** Ends everything: after the last message, when the consumer stopped early, or with the error the query threw. */
  finish(outcome: { error?: unknown; stoppedEarly?: boolean } = {}): void {
    this.recorder.guard(() => {
      if (this.finished) return;
      this.finished = true;
      for (const lane of this.lanes.values()) this.closeTurn(lane);
      for (const tool of this.tools.values()) tool.addContext({ toolResult: "none received" }).end();
      this.tools.clear();
      if (outcome.stoppedEarly) this.root.addContext({ stoppedEarly: true });
      const error = outcome.error ?? this.failure;
      if (error !== undefined) this.root.fail(error, this.summary);
      else this.root.end(this.summary);
    });
  }

  private onInit(m: Record<string, unknown>): void {
    this.model = m.model;
    this.root.addContext({ model: str(m.model), session_id: str(m.session_id), claude_code_version: str(m.claude_code_version) });
  }

  private onAssistant(m: Record<string, unknown>): void {
    const lane = this.lane(m.parent_tool_use_id);
    const message = record(m.message);
    const messageId = str(message?.id);
    if (lane.turn === undefined || messageId === undefined || lane.turn.messageId !== messageId) {
      this.closeTurn(lane);
      const model = message?.model ?? this.model;
      const span = this.recorder.start({ name: str(model) ?? "assistant", type: "llm", parent: lane.parent, startedAt: lane.lastEventAt, input: lane.lastUserContent, traceFunctionKey: "claude-agent-sdk" });
      if (span === undefined) return;
      lane.turn = { span, messageId, model, usage: undefined, finalUsage: undefined, content: [] };
    }
    const turn = lane.turn;
    turn.usage = { ...turn.usage, ...record(message?.usage) };
    for (const block of blocksOf(message)) {
      turn.content.push(toPlain(block));
      if (block.type === "tool_use") this.startTool(block, lane.parent);
    }
    if (m.error !== undefined) turn.span.addContext({ assistantError: toPlain(m.error) });
    lane.lastEventAt = new Date();
  }

  private onUser(m: Record<string, unknown>): void {
    const lane = this.lane(m.parent_tool_use_id);
    this.closeTurn(lane);
    const blocks = blocksOf(m.message);
    for (const block of blocks.filter((b) => b.type === "tool_result")) this.endTool(block);
    lane.lastUserContent = toPlain(record(m.message)?.content);
    lane.lastEventAt = new Date();
  }

  /** With `includePartialMessages`, `message_delta` carries a turn's final output token count. */
  private onStreamEvent(m: Record<string, unknown>): void {
    const event = record(m.event);
    const usage = record(event?.usage);
    const turn = this.lane(m.parent_tool_use_id).turn;
    if (event?.type === "message_delta" && usage && turn) turn.finalUsage = { ...turn.finalUsage, ...usage };
  }

  private onResult(m: Record<string, unknown>): void {
    this.summary = resultSummary(m);
    if (m.is_error === true || (typeof m.subtype === "string" && m.subtype !== "success")) this.failure = resultError(m);
    if (this.root.state.isRoot) {
      const { usage, num_turns, total_cost_usd, duration_ms, duration_api_ms, session_id } = this.summary;
      Object.assign(this.root.trace.metadata, Object.fromEntries(Object.entries({ usage, num_turns, total_cost_usd, duration_ms, duration_api_ms, session_id }).filter(([, v]) => v !== undefined)));
    }
    this.finish();
  }

  private startTool(block: Block, parent: FrameworkSpan): void {
    const id = str(block.id);
    if (id === undefined || this.tools.has(id)) return;
    const span = this.recorder.start({ name: str(block.name) ?? "tool", type: "function", parent, input: toPlain(block.input), traceFunctionKey: "claude-agent-sdk" });
    if (span === undefined) return;
    span.addContext({ toolUseId: id });
    this.tools.set(id, span);
  }

  private endTool(block: Block): void {
    const id = str(block.tool_use_id);
    const span = id === undefined ? undefined : this.tools.get(id);
    if (span === undefined || id === undefined) return;
    this.tools.delete(id);
    this.lanes.delete(id); // a subagent run under this tool call is over
    const output = toolResultOutput(block);
    if (block.is_error === true) span.fail(new Error(typeof output === "string" ? output : "tool error"), output);
    else span.end(output);
  }

  private closeTurn(lane: Lane): void {
    const turn = lane.turn;
    if (turn === undefined) return;
    lane.turn = undefined;
    for (const context of turnContext(turn.model, { ...turn.usage, ...turn.finalUsage })) turn.span.addContext(context);
    turn.span.end({ role: "assistant", content: turn.content });
  }

  private lane(parentToolUseId: unknown): Lane {
    const key = str(parentToolUseId) ?? "";
    const existing = this.lanes.get(key);
    if (existing) return existing;
    const lane: Lane = { parent: this.tools.get(key) ?? this.root, turn: undefined, lastEventAt: new Date(), lastUserContent: undefined };
    this.lanes.set(key, lane);
    return lane;
  }
}

