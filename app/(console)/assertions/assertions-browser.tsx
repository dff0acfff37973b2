"use client";
// The Assertions page: the most recently written assertions, grouped by trace function, with a trace
// function filter and a review state filter (approved by default: only those are judged; both kept in the URL)
// and cursor paging; each row shows its state; edit, history and archive in place.
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
import { useCan } from "../_components/permissions.tsx";

type Recent = RouterOutputs["assertions"]["recent"]["assertions"][number];

export function AssertionsBrowser() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const traceFunctionKey = params.get("fn") || undefined;
  const state = readState(params.get("state"));
  const [cursors, setCursors] = useState<string[]>([]);
  const [editing, setEditing] = useState<Assertion | null>(null);
  const canCurate = useCan("curate");
  const keys = useQuery(trpc.traces.functionKeys.queryOptions());
  const list = useQuery({ ...trpc.assertions.recent.queryOptions({ traceFunctionKey, approvalState: state, cursor: cursors.at(-1), limit: 50 }), placeholderData: keepPreviousData });
  const setParam = (key: "fn" | "state", value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setCursors([]);
    router.replace(next.size > 0 ? `${pathname}?${next.toString()}` : pathname);
  };
  const counts = list.data?.counts;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3" role="search" aria-label="Filter assertions">
        <label className="w-64 text-xs font-medium text-zinc-600">
          Trace function
          <Select className="mt-1" aria-label="Trace function" value={traceFunctionKey ?? ""} onChange={(e) => setParam("fn", e.target.value)}>
            <option value="">All</option>
            {(keys.data ?? []).map((k) => <option key={k} value={k}>{k}</option>)}
          </Select>
        </label>
        <label className="w-56 text-xs font-medium text-zinc-600">
          State
          <Select className="mt-1" aria-label="State" value={state} onChange={(e) => setParam("state", e.target.value === "approved" ? "" : e.target.value)}>
            {STATES.map(([s, label]) => (
              <option key={s} value={s}>{label}{counts ? ` (${s === "all" ? counts.approved + counts.pending + counts.rejected : counts[s]})` : ""}</option>
            ))}
          </Select>
        </label>
      </div>
      {list.isPending ? <LoadingState label="Loading assertions" /> : list.isError ? <ErrorState error={list.error} onRetry={() => list.refetch()} /> :
        list.data.assertions.length === 0 ? (
          <Card>
            <EmptyState title={state !== "all" && counts && counts.approved + counts.pending + counts.rejected > 0 ? `No ${state} assertions${traceFunctionKey ? " for this trace function" : ""}` : traceFunctionKey ? "No assertions for this trace function" : "No assertions yet"}>
              <p>Open a trace from the <Link className="text-accent-700 dark:text-accent-300 underline" href="/traces">trace list</Link> and choose <strong>Add assertion</strong> to say what it must keep doing.</p>
              <p>Agents can write them too, with <code className="rounded bg-zinc-100 px-1">POST /api/sdk/traces/assertions</code>.</p>
            </EmptyState>
          </Card>
        ) : groupByFunction(list.data.assertions).map(([fn, rows]) => (
          <Card key={fn} aria-label={`Assertions of ${fn}`}>
            <CardHeader title={<span className="font-mono">{fn}</span>} description={`${rows.length} ${state === "all" ? "" : `${state} `}shown, newest first`} />
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
      {editing && canCurate ? <AssertionDialog traceId={editing.traceId} assertion={editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}

const STATES = [["approved", "Approved"], ["pending", "Pending review"], ["rejected", "Rejected"], ["all", "Every state"]] as const;
type StateFilter = (typeof STATES)[number][0];

/** The state in the address; approved when absent or unknown (those are the ones replays judge). */
function readState(value: string | null): StateFilter {
  return STATES.find(([s]) => s === value)?.[0] ?? "approved";
}

function groupByFunction(rows: Recent[]): [string, Recent[]][] {
  const groups = new Map<string, Recent[]>();
  for (const r of rows) {
    const key = r.trace.traceFunctionKey ?? "(no trace function)";
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups];
}
