"use client";
// "Export": downloads every trace the list's filters match, as JSON Lines or OTLP/JSON (docs/operations.md,
// "Export and import"), read a page at a time with a progress bar against the list's count; cancellable.
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { Select } from "@/components/ui/field.tsx";
import { formatNumber } from "@/components/ui/format.ts";
import { FormError } from "@/components/ui/states.tsx";
import { useTRPCClient } from "@/components/trpc/react.tsx";
import type { readFilters } from "./trace-filters.ts";

type Filters = ReturnType<typeof readFilters>;

export function ExportButton({ filters, total }: { filters: Filters; total: number }) {
  const client = useTRPCClient();
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<"jsonl" | "otlp">("jsonl");
  const [withDefinitions, setWithDefinitions] = useState(false);
  const [done, setDone] = useState<number | null>(null);
  const [error, setError] = useState<{ message: string } | null>(null);
  const cancelled = useRef(false);

  async function run() {
    cancelled.current = false;
    setError(null);
    setDone(0);
    const parts: string[] = [];
    let cursor: string | null = null;
    let count = 0;
    try {
      do {
        const page: { lines: string[]; traces: number; nextCursor: string | null } = await client.transfer.exportPage.query({
          ...filters, format, include: withDefinitions && format === "jsonl" ? ["graders", "datasets"] : [], cursor,
        });
        if (cancelled.current) return setDone(null);
        for (const line of page.lines) parts.push(`${line}\n`);
        count += page.traces;
        setDone(count);
        cursor = page.nextCursor;
      } while (cursor !== null);
    } catch (e) {
      setError(e as { message: string });
      setDone(null);
      return;
    }
    const url = URL.createObjectURL(new Blob(parts, { type: "application/x-ndjson" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `reprise-export.${format === "otlp" ? "otlp.jsonl" : "jsonl"}`;
    a.click();
    URL.revokeObjectURL(url);
    setOpen(false);
    setDone(null);
  }

  const running = done !== null;
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} disabled={total === 0}>Export</Button>
      <Dialog open={open} onOpenChange={(o) => { if (!o) cancelled.current = true; setOpen(o); }} title={`Export ${formatNumber(total)} trace${total === 1 ? "" : "s"}`}>
        <div className="space-y-3">
          <label className="block text-sm">
            Format
            <Select className="mt-1" value={format} onChange={(e) => setFormat(e.target.value as "jsonl" | "otlp")} disabled={running}>
              <option value="jsonl">JSON Lines (spans, labels, grader labels; imports into any Reprise)</option>
              <option value="otlp">OTLP/JSON (one export request per trace)</option>
            </Select>
          </label>
          {format === "jsonl" ? (
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={withDefinitions} onChange={(e) => setWithDefinitions(e.target.checked)} disabled={running} />
              Include graders and dataset membership
            </label>
          ) : null}
          {running ? (
            <div className="space-y-1">
              <progress className="w-full" max={Math.max(total, 1)} value={done} aria-label="Export progress" />
              <p className="text-xs text-zinc-500">{formatNumber(done)} of {formatNumber(total)} traces</p>
            </div>
          ) : null}
          <FormError error={error} />
          <div className="flex justify-end gap-2">
            <Button variant="ghost" onClick={() => { cancelled.current = true; setOpen(false); }}>Cancel</Button>
            <Button onClick={() => void run()} disabled={running}>Download</Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}
