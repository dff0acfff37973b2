"use client";
// The review queue: pending assertions, oldest first, filtered by trace function, category and assignee.
// Keyboard: J / K (or the arrow keys) move, A approves, R rejects, E edits (Ctrl+Enter saves, Escape cancels),
// X selects; with a selection, A and R (and the buttons) act on every selected assertion. The filters live in the
// URL (?fn=&category=&assignee=), so a filtered queue can be reloaded and shared. docs/api/console.md.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { Field, Select, Textarea } from "@/components/ui/field.tsx";
import { EmptyState, ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { EvidenceLinks } from "./evidence-links.tsx";

type Pending = RouterOutputs["review"]["queue"]["assertions"][number];

const isTextField = (el: EventTarget | null) => el instanceof HTMLElement && el.closest("input, textarea, select, [contenteditable=true]") !== null;

function targetText(t: Pending["targetOnEvaluatedTrace"]) {
  if (!t) return "the whole trace";
  if (t.kind === "output") return "the output";
  return `span "${t.name}" (${t.occurrence} occurrence)`;
}

export function ReviewQueue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters = {
    traceFunctionKey: params.get("fn") || undefined,
    categoryId: params.get("category") || undefined,
    assignee: params.get("assignee") || undefined,
  };
  const queue = useQuery(trpc.review.queue.queryOptions({ ...filters, limit: 100 }));
  const options = useQuery(trpc.review.filters.queryOptions());
  const [cursor, setCursor] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const setFilter = (key: "fn" | "category" | "assignee", value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setCursor(0);
    setSelected(new Set());
    router.replace(next.size > 0 ? `${pathname}?${next.toString()}` : pathname);
  };
  const [editing, setEditing] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.review.pathKey() });
  const decide = useMutation(trpc.review.decide.mutationOptions({
    onSuccess: async (r) => {
      setStatus(`${r.approvalState === "approved" ? "Approved" : "Rejected"} ${r.reviewed.length} assertion(s).`);
      setSelected(new Set());
      await invalidate();
    },
  }));
  const items = queue.data?.assertions ?? [];
  const current = items[Math.min(cursor, items.length - 1)];

  const act = (approvalState: "approved" | "rejected") => {
    const ids = selected.size > 0 ? [...selected] : current ? [current.id] : [];
    if (ids.length > 0 && !decide.isPending) decide.mutate({ ids, approvalState });
  };
  const toggle = (id: string) => setSelected((s) => {
    const next = new Set(s);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey || e.repeat || editing || isTextField(e.target)) return;
      const key = e.key.toLowerCase();
      if (key === "j" || e.key === "ArrowDown") setCursor((c) => Math.min(c + 1, Math.max(items.length - 1, 0)));
      else if (key === "k" || e.key === "ArrowUp") setCursor((c) => Math.max(c - 1, 0));
      else if (key === "a") act("approved");
      else if (key === "r") act("rejected");
      else if (key === "e" && current) setEditing(current.id);
      else if (key === "x" && current) toggle(current.id);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  return (
    <div className="space-y-4">
      <Card className="grid gap-3 p-4 sm:grid-cols-3">
        <Field label="Trace function">
          {(id) => (
            <Select id={id} value={filters.traceFunctionKey ?? ""} onChange={(e) => setFilter("fn", e.target.value)}>
              <option value="">All</option>
              {(queue.data?.traceFunctionKeys ?? []).map((k) => <option key={k} value={k}>{k}</option>)}
            </Select>
          )}
        </Field>
        <Field label="Category">
          {(id) => (
            <Select id={id} value={filters.categoryId ?? ""} onChange={(e) => setFilter("category", e.target.value)}>
              <option value="">All</option>
              {(options.data?.categories ?? []).map((c) => <option key={c.id} value={c.id}>{c.title}</option>)}
            </Select>
          )}
        </Field>
        <Field label="Assignee">
          {(id) => (
            <Select id={id} value={filters.assignee ?? ""} onChange={(e) => setFilter("assignee", e.target.value)}>
              <option value="">Anyone</option>
              <option value="unassigned">Unassigned</option>
              {(options.data?.members ?? []).map((m) => <option key={m.email} value={m.email}>{m.name ?? m.email}</option>)}
            </Select>
          )}
        </Field>
      </Card>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Button size="sm" disabled={decide.isPending || items.length === 0} onClick={() => act("approved")}>
          {selected.size ? `Approve ${selected.size} selected` : "Approve"} (A)
        </Button>
        <Button size="sm" variant="secondary" disabled={decide.isPending || items.length === 0} onClick={() => act("rejected")}>
          {selected.size ? `Reject ${selected.size} selected` : "Reject"} (R)
        </Button>
        <span className="text-xs text-zinc-500">J/K move · E edit · X select</span>
        <span role="status" aria-live="polite" className="text-xs text-zinc-600">{status}</span>
      </div>
      <FormError error={decide.error} />
      {queue.isPending ? <LoadingState label="Loading the review queue" /> : queue.isError ? <ErrorState error={queue.error} onRetry={() => queue.refetch()} /> : items.length === 0 ? (
        <EmptyState title="Nothing to review">Assertions agents propose appear here until someone approves or rejects them.</EmptyState>
      ) : (
        <ol className="space-y-3" aria-label="Pending assertions">
          {items.map((a, i) => (
            <li key={a.id}>
              <PendingCard a={a} focused={a.id === current?.id} selected={selected.has(a.id)} onToggle={() => toggle(a.id)} onFocus={() => setCursor(i)}
                editing={editing === a.id} onEditDone={async (saved) => { setEditing(null); if (saved) { setStatus("Saved the edit; the assertion still awaits a decision."); await invalidate(); } }} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function PendingCard({ a, focused, selected, onToggle, onFocus, editing, onEditDone }: {
  a: Pending;
  focused: boolean;
  selected: boolean;
  onToggle: () => void;
  onFocus: () => void;
  editing: boolean;
  onEditDone: (saved: boolean) => void;
}) {
  return (
    <Card aria-label={`Assertion: ${a.assertion}`} aria-current={focused ? "true" : undefined} onClick={onFocus}
      className={focused ? "ring-2 ring-accent-500" : undefined}>
      <div className="flex gap-3 p-4">
        <input type="checkbox" className="mt-1" checked={selected} onChange={onToggle} aria-label={`Select: ${a.assertion}`} />
        <div className="min-w-0 flex-1 space-y-1 text-sm">
          {editing ? <EditForm a={a} onDone={onEditDone} /> : (
            <>
              <p className="font-medium text-zinc-900">{a.assertion}</p>
              <p className="text-xs text-zinc-600">Checks {targetText(a.targetOnEvaluatedTrace)}
                {a.passCriteria ? ` · pass: ${a.passCriteria}` : ""}{a.failCriteria ? ` · fail: ${a.failCriteria}` : ""}</p>
            </>
          )}
          <p className="flex flex-wrap items-center gap-2 text-xs text-zinc-600">
            <Link href={`/traces/${a.trace.id}`} className="text-accent-700 dark:text-accent-300 hover:underline">{a.trace.name || a.trace.traceFunctionKey || a.trace.id.slice(0, 8)}</Link>
            {a.trace.traceFunctionKey ? <span className="font-mono">{a.trace.traceFunctionKey}</span> : null}
            <Badge>{a.source}</Badge>
            {a.category ? <Badge tone="accent">{a.category.title}</Badge> : null}
            {a.assigneeEmail ? <span>Assigned to {a.assigneeEmail}</span> : null}
          </p>
          {a.humanNote ? <p className="text-xs text-zinc-600">Note: {a.humanNote}</p> : null}
          <EvidenceLinks traceId={a.trace.id} evidence={a.justification} />
        </div>
      </div>
    </Card>
  );
}

function EditForm({ a, onDone }: { a: Pending; onDone: (saved: boolean) => void }) {
  const trpc = useTRPC();
  const [text, setText] = useState(a.assertion);
  const [pass, setPass] = useState(a.passCriteria ?? "");
  const [fail, setFail] = useState(a.failCriteria ?? "");
  const edit = useMutation(trpc.review.edit.mutationOptions({ onSuccess: () => onDone(true) }));
  const save = () => edit.mutate({ traceId: a.traceId, assertion: { id: a.id, assertion: text, passCriteria: pass || null, failCriteria: fail || null } });
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === "Escape") { e.preventDefault(); onDone(false); }
    else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); save(); }
  };
  return (
    <div className="space-y-2" onKeyDown={onKey}>
      <Field label="Assertion">{(id) => <Textarea id={id} autoFocus value={text} onChange={(e) => setText(e.target.value)} />}</Field>
      <div className="grid gap-2 sm:grid-cols-2">
        <Field label="Passes when">{(id) => <Textarea id={id} className="min-h-12" value={pass} onChange={(e) => setPass(e.target.value)} />}</Field>
        <Field label="Fails when">{(id) => <Textarea id={id} className="min-h-12" value={fail} onChange={(e) => setFail(e.target.value)} />}</Field>
      </div>
      <FormError error={edit.error} />
      <div className="flex gap-2">
        <Button size="sm" onClick={save} disabled={edit.isPending || text.trim() === ""}>Save (Ctrl+Enter)</Button>
        <Button size="sm" variant="secondary" onClick={() => onDone(false)}>Cancel (Esc)</Button>
      </div>
    </div>
  );
}
