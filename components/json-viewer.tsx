"use client";
// A readable, collapsible JSON viewer. Every value is rendered as React text (never as HTML), so span
// content such as "<script>" or "<img onerror>" shows as characters and never runs.
import { useState } from "react";

const MAX_INLINE_STRING = 400;
const OPEN_ENTRIES = 25;

export function JsonViewer({ value, label, initiallyOpenDepth = 2 }: { value: unknown; label?: string; initiallyOpenDepth?: number }) {
  return (
    <div className="overflow-x-auto rounded-md bg-zinc-50 p-3 font-mono text-xs leading-relaxed text-zinc-800" aria-label={label}>
      <Node value={value} depth={0} openDepth={initiallyOpenDepth} />
    </div>
  );
}

function Node({ value, depth, openDepth }: { value: unknown; depth: number; openDepth: number }) {
  if (value === null) return <span className="text-zinc-400">null</span>;
  if (value === undefined) return <span className="text-zinc-400">undefined</span>;
  if (typeof value === "string") return <StringValue value={value} />;
  if (typeof value === "number" || typeof value === "bigint") return <span className="text-sky-700 dark:text-sky-300">{String(value)}</span>;
  if (typeof value === "boolean") return <span className="text-violet-700 dark:text-violet-300">{String(value)}</span>;
  if (value instanceof Date) return <span className="text-emerald-700 dark:text-emerald-300">{value.toISOString()}</span>;
  if (Array.isArray(value)) return <Collection entries={value.map((v, i) => [String(i), v])} brackets="[]" depth={depth} openDepth={openDepth} />;
  if (typeof value === "object") return <Collection entries={Object.entries(value as Record<string, unknown>)} brackets="{}" depth={depth} openDepth={openDepth} />;
  return <span>{String(value)}</span>;
}

function StringValue({ value }: { value: string }) {
  const [full, setFull] = useState(false);
  const long = value.length > MAX_INLINE_STRING;
  const shown = long && !full ? `${value.slice(0, MAX_INLINE_STRING)}…` : value;
  return (
    <span className="break-words whitespace-pre-wrap text-emerald-800">
      &quot;{shown}&quot;
      {long ? (
        <button type="button" className="ml-1 text-accent-700 dark:text-accent-300 underline" onClick={() => setFull(!full)}>
          {full ? "show less" : `show all ${value.length.toLocaleString()} characters`}
        </button>
      ) : null}
    </span>
  );
}

function Collection({ entries, brackets, depth, openDepth }: { entries: [string, unknown][]; brackets: "[]" | "{}"; depth: number; openDepth: number }) {
  const large = entries.length > OPEN_ENTRIES;
  const [open, setOpen] = useState(depth < openDepth && !large);
  const [open_, close_] = brackets.split("") as [string, string];
  if (entries.length === 0) return <span className="text-zinc-500">{brackets}</span>;
  const summary = brackets === "[]" ? `${entries.length} item${entries.length === 1 ? "" : "s"}` : `${entries.length} key${entries.length === 1 ? "" : "s"}`;
  return (
    <span>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="text-zinc-500 hover:text-zinc-900">
        {open ? "▾" : "▸"} {open_}
        {open ? null : <span className="px-1 text-zinc-400">{summary}</span>}
        {open ? null : close_}
      </button>
      {open ? (
        <>
          <ul className="ml-4 border-l border-zinc-200 pl-2">
            {entries.map(([key, v]) => (
              <li key={key}>
                {brackets === "{}" ? <span className="text-zinc-600">{JSON.stringify(key)}: </span> : <span className="text-zinc-400">{key}: </span>}
                <Node value={v} depth={depth + 1} openDepth={openDepth} />
              </li>
            ))}
          </ul>
          <span className="text-zinc-500">{close_}</span>
        </>
      ) : null}
    </span>
  );
}
