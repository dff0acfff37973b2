"use client";
// The Assertions page: the most recently written assertions, grouped by trace function,
// with a trace function filter (kept in the URL) and cursor paging; edit and archive in place.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Select } from "@/components/ui/field.tsx";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { AssertionDialog, type Assertion } from "./assertion-dialog.tsx";
import { AssertionItem } from "./assertion-item.tsx";

type Recent = RouterOutputs["assertions"]["recent"]["assertions"][number];

export function AssertionsBrowser() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const traceFunctionKey = params.get("fn") || undefined;
  const [cursors, setCursors] = useState<string[]>([]);
  const [editing, setEditing] = useState<Assertion | null>(null);
  const keys = useQuery(trpc.traces.functionKeys.queryOptions());
  const list = useQuery({ ...trpc.assertions.recent.queryOptions({ traceFunctionKey, cursor: cursors.at(-1), limit: 50 }), placeholderData: keepPreviousData });
  const setFunction = (fn: string) => {
    setCursors([]);
    router.replace(fn ? `${pathname}?fn=${encodeURIComponent(fn)}` : pathname);
  };
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3" role="search" aria-label="Filter assertions">
        <label className="w-64 text-xs font-medium text-zinc-600">
          Trace function
          <Select className="mt-1" value={traceFunctionKey ?? ""} onChange={(e) => setFunction(e.target.value)}>
            <option value="">All</option>
            {(keys.data ?? []).map((k) => <option key={k} value={k}>{k}</option>)}
          </Select>
        </label>
      </div>
      {list.isPending ? <LoadingState label="Loading assertions" /> : list.isError ? <ErrorState error={list.error} onRetry={() => list.refetch()} /> :
        list.data.assertions.length === 0 ? (
          <Card>
            <EmptyState title={traceFunctionKey ? "No assertions for this trace function" : "No assertions yet"}>
              <p>Open a trace from the <Link className="text-accent-700 dark:text-accent-300 underline" href="/traces">trace list</Link> and choose <strong>Add assertion</strong> to say what it must keep doing.</p>
              <p>Agents can write them too, with <code className="rounded bg-zinc-100 px-1">POST /api/sdk/traces/assertions</code>.</p>
            </EmptyState>
          </Card>
        ) : groupByFunction(list.data.assertions).map(([fn, rows]) => (
          <Card key={fn} aria-label={`Assertions of ${fn}`}>
            <CardHeader title={<span className="font-mono">{fn}</span>} description={`${rows.length} shown, newest first`} />
            <ul className="divide-y divide-zinc-100">
              {rows.map((a) => (
                <AssertionItem key={a.id} assertion={a} onEdit={() => setEditing(a)}
                  context={<>on <Link className="text-accent-700 dark:text-accent-300 hover:underline" href={`/traces/${a.trace.id}`}>{a.trace.name || a.trace.id.slice(0, 8)}</Link></>} />
              ))}
            </ul>
          </Card>
        ))}
      <nav aria-label="Pages" className="flex items-center justify-end gap-2">
        <Button variant="secondary" size="sm" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>Newer</Button>
        <Button variant="secondary" size="sm" disabled={!list.data?.nextCursor} onClick={() => list.data?.nextCursor && setCursors((c) => [...c, list.data.nextCursor!])}>Older</Button>
      </nav>
      {editing ? <AssertionDialog traceId={editing.traceId} assertion={editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}

function groupByFunction(rows: Recent[]): [string, Recent[]][] {
  const groups = new Map<string, Recent[]>();
  for (const r of rows) {
    const key = r.trace.traceFunctionKey ?? "(no trace function)";
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups];
}
