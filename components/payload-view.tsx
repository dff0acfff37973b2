"use client";
// A span payload three ways: a chat view when it holds LLM messages (wherever the common shapes put them:
// chat-messages.ts), the collapsible JSON tree, and the raw JSON text with a copy button. Everything renders
// as React text, never as HTML.
import { useState } from "react";
import { CopyButton } from "./ui/copy-button.tsx";
import { JsonViewer } from "./json-viewer.tsx";
import { cn } from "./ui/cn.ts";
import { findMessages, type TChatMessage as Message } from "./chat-messages.ts";

export function rawJson(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? String(value));
}

export function PayloadView({ value, label }: { value: unknown; label: string }) {
  const messages = findMessages(value);
  const views = [...(messages ? (["chat"] as const) : []), "tree" as const, "raw" as const];
  const [view, setView] = useState<(typeof views)[number]>(views[0]!);
  const names = { chat: "Chat", tree: "JSON", raw: "Raw" };
  return (
    <div className="space-y-1.5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div role="group" aria-label={`${label}: view`} className="inline-flex rounded-md border border-zinc-200 p-0.5">
          {views.map((v) => (
            <button key={v} type="button" aria-pressed={view === v} onClick={() => setView(v)}
              className={cn("rounded px-2 py-0.5 text-xs", view === v ? "bg-zinc-200 font-medium text-zinc-900" : "text-zinc-600 hover:text-zinc-900")}>
              {names[v]}
            </button>
          ))}
        </div>
        <CopyButton value={rawJson(value)} label="Copy" />
      </div>
      {view === "chat" && messages ? <ChatView messages={messages} label={label} /> : view === "raw" ? (
        <pre aria-label={label} className="max-h-[32rem] overflow-auto rounded-md bg-zinc-50 p-3 font-mono text-xs whitespace-pre-wrap break-words text-zinc-800">{rawJson(value)}</pre>
      ) : <JsonViewer value={value} label={label} />}
    </div>
  );
}

const roleStyle: Record<string, string> = {
  user: "ml-6 bg-accent-50 border-accent-100",
  assistant: "mr-6 bg-white border-zinc-200",
  system: "bg-amber-50 border-amber-200",
  tool: "mr-6 bg-zinc-50 border-zinc-200",
};

function ChatView({ messages, label }: { messages: Message[]; label: string }) {
  return (
    <ol aria-label={label} className="space-y-2">
      {messages.map((m, i) => (
        <li key={i} className={cn("rounded-lg border px-3 py-2", roleStyle[m.role] ?? "bg-zinc-50 border-zinc-200")}>
          <span className="block text-[11px] font-semibold tracking-wide text-zinc-600 uppercase">{m.role}</span>
          <span className="block text-sm break-words whitespace-pre-wrap text-zinc-900">{m.content}</span>
        </li>
      ))}
    </ol>
  );
}
