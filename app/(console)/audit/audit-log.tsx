"use client";
// The audit log (docs/operations.md, "Audit log"): who changed what, before and after; admins and owners only.
// Its filters live in the URL, so a filtered view can be bookmarked and shared.
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Field, Input, Select } from "@/components/ui/field.tsx";
import { formatDateTime } from "@/components/ui/format.ts";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { useCan } from "../_components/permissions.tsx";

type AuditEvent = RouterOutputs["audit"]["list"]["events"][number];
const KINDS = [
  ["", "Every change"], ["grader.", "Graders"], ["sim-plan.", "Sim plan"], ["dataset.", "Datasets"], ["assertion.", "Assertions"], ["label.", "Verdicts"],
  ["trace.", "Trace deletions and pins"], ["retention.", "Retention"], ["redaction.", "Redaction rules"], ["price.", "Model prices"], ["api-key.", "API keys"],
  ["user.", "Users and roles"], ["invitation.", "Invitations"], ["sso.", "Single sign-on"],
] as const;
const VIAS = [["", "Any way"], ["console", "Console"], ["rest", "REST"], ["mcp", "MCP (agents)"], ["cli", "Admin CLI"]] as const;

type Filter = "kind" | "via" | "by" | "from" | "to";

export function AuditPage() {
  const canRead = useCan("read-audit");
  return canRead ? <AuditLog /> : <EmptyState title="Admins and owners only">Your role does not include the audit log; an admin or owner of your organization can read it.</EmptyState>;
}

function AuditLog() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const kind = params.get("kind") ?? "";
  const via = VIAS.some(([v]) => v === params.get("via")) ? params.get("via")! : "";
  // A hand-edited address falls back to no filter rather than an error.
  const actorUserId = /^[0-9a-f-]{36}$/i.test(params.get("by") ?? "") ? params.get("by")! : "";
  const day = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : "");
  const from = day(params.get("from"));
  const to = day(params.get("to"));
  const setParam = (key: Filter, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    router.replace(next.size > 0 ? `${pathname}?${next.toString()}` : pathname);
  };
  const people = useQuery(trpc.people.list.queryOptions()).data?.people ?? [];
  // Days in the browser's time zone: from the start of `from` to the end of `to`.
  const dayStart = (day: string, plusDays = 0) => new Date(new Date(`${day}T00:00:00`).getTime() + plusDays * 86_400_000).toISOString();
  const input = {
    limit: 50,
    ...(kind ? { kind } : {}),
    ...(via ? { via: via as AuditEvent["actor"]["via"] } : {}),
    ...(actorUserId ? { actorUserId } : {}),
    ...(from ? { from: dayStart(from) } : {}),
    ...(to ? { to: dayStart(to, 1) } : {}),
  };
  const log = useInfiniteQuery(trpc.audit.list.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const events = log.data?.pages.flatMap((p) => p.events) ?? [];
  return (
    <Card aria-labelledby="audit-title">
      <CardHeader title={<span id="audit-title">Changes</span>} description="Newest first. Filter by kind, by how the change was made, by who made it and by day." />
      <div className="flex flex-wrap gap-3 px-4 pb-3">
        <Field label="Kind">{(id) => <Select id={id} value={kind} onChange={(e) => setParam("kind", e.target.value)}>{KINDS.map(([v, l]) => <option key={v} value={v}>{l}</option>)}</Select>}</Field>
        <Field label="Made through">{(id) => <Select id={id} value={via} onChange={(e) => setParam("via", e.target.value)}>{VIAS.map(([v, l]) => <option key={v} value={v}>{l}</option>)}</Select>}</Field>
        <Field label="Made by">{(id) => (
          <Select id={id} value={actorUserId} onChange={(e) => setParam("by", e.target.value)}>
            <option value="">Anyone</option>
            {people.map((p) => <option key={p.id} value={p.id}>{p.email}</option>)}
          </Select>
        )}</Field>
        <Field label="From">{(id) => <Input id={id} type="date" value={from} onChange={(e) => setParam("from", e.target.value)} />}</Field>
        <Field label="To">{(id) => <Input id={id} type="date" value={to} onChange={(e) => setParam("to", e.target.value)} />}</Field>
      </div>
      {log.isPending ? <LoadingState label="Loading the audit log" /> : log.isError ? <ErrorState error={log.error} onRetry={() => log.refetch()} /> : events.length === 0 ? (
        <EmptyState title="No changes recorded">Changes appear here as people, keys and agents make them.</EmptyState>
      ) : (
        <ul className="divide-y divide-zinc-100" aria-label="Audit events">
          {events.map((e) => <AuditRow key={e.id} event={e} />)}
        </ul>
      )}
      {log.hasNextPage ? <div className="flex justify-center p-3"><Button variant="secondary" size="sm" disabled={log.isFetchingNextPage} onClick={() => log.fetchNextPage()}>Older changes</Button></div> : null}
    </Card>
  );
}

function AuditRow({ event: e }: { event: AuditEvent }) {
  const who = `${e.actor.email ?? (e.actor.via === "cli" ? "the admin CLI" : "a removed user")} · ${e.actor.via}${e.actor.tool ? ` (${e.actor.tool})` : ""}`;
  return (
    <li className="space-y-1 px-4 py-2.5 text-sm" aria-label={`${e.kind} ${e.target.id}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-medium text-zinc-900">{e.kind} <span className="font-mono text-xs text-zinc-500">{e.target.id}</span></span>
        <span className="text-xs text-zinc-500" title={e.at}>{formatDateTime(e.at)} · {who}</span>
      </div>
      <p className="font-mono text-xs break-all text-zinc-600"><span className="text-red-700 dark:text-red-300">{compact(e.before)}</span> → <span className="text-green-700 dark:text-green-300">{compact(e.after)}</span></p>
    </li>
  );
}

const compact = (value: unknown) => (value === null || value === undefined ? "(none)" : JSON.stringify(value));
