"use client";
// The review queue: pending assertions, oldest first, filtered by trace function, category and assignee.
// Keyboard: J / K (or the arrow keys) move, A approves, R rejects, E edits (Ctrl+Enter saves, Escape cancels),
// X selects, S records the focused trace's first grader score or category (Enter saves, Escape cancels); with a
// selection, A and R (and the buttons) act on every selected assertion. The filters live in the
// URL (?fn=&category=&assignee=), so a filtered queue can be reloaded and shared. An edit can be undone from the
// status line: it restores the version the edit replaced. docs/api/console.md.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { Field, Select } from "@/components/ui/field.tsx";
import { EmptyState, ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { PendingCard } from "./review-card.tsx";
import { useCan } from "../_components/permissions.tsx";

const isTextField = (el: EventTarget | null) => el instanceof HTMLElement && el.closest("input, textarea, select, [contenteditable=true]") !== null;

export function ReviewQueue() {
  const canCurate = useCan("curate");
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
  /** The assertion whose edit the status line offers to undo. */
  const [undoable, setUndoable] = useState<{ id: string } | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.review.pathKey() });
  const decide = useMutation(trpc.review.decide.mutationOptions({
    onSuccess: async (r) => {
      setStatus(`${r.approvalState === "approved" ? "Approved" : "Rejected"} ${r.reviewed.length} assertion(s).`);
      setUndoable(null);
      setSelected(new Set());
      await invalidate();
    },
  }));
  // Undoing an edit restores the version it replaced (the newest one kept); the undo is itself kept as a version.
  const revert = useMutation(trpc.assertions.revert.mutationOptions());
  const undoEdit = async (id: string) => {
    try {
      const history = await queryClient.fetchQuery(trpc.assertions.history.queryOptions({ assertionId: id }, { staleTime: 0 }));
      const last = history.versions[0];
      if (!last) return;
      await revert.mutateAsync({ assertionId: id, version: last.version });
      setUndoable(null);
      setStatus("Undid the edit: the assertion says what it said before.");
      await Promise.all([invalidate(), queryClient.invalidateQueries({ queryKey: trpc.assertions.pathKey() })]);
    } catch (e) {
      setStatus(`The edit was not undone: ${(e as Error).message}`);
    }
  };
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
      // Moving is for everyone; deciding, editing and selecting only for roles that curate (the server refuses the rest).
      if (key === "j" || e.key === "ArrowDown") setCursor((c) => Math.min(c + 1, Math.max(items.length - 1, 0)));
      else if (key === "k" || e.key === "ArrowUp") setCursor((c) => Math.max(c - 1, 0));
      // S: the focused card's first grader score or category (recording scores is labelling, not curating).
      else if (key === "s" && document.querySelector("[aria-current='true'] [data-record-score]")) document.querySelector<HTMLButtonElement>("[aria-current='true'] [data-record-score]")!.click();
      else if (!canCurate) return;
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
        {canCurate ? <>
          <Button size="sm" disabled={decide.isPending || items.length === 0} onClick={() => act("approved")}>
            {selected.size ? `Approve ${selected.size} selected` : "Approve"} (A)
          </Button>
          <Button size="sm" variant="secondary" disabled={decide.isPending || items.length === 0} onClick={() => act("rejected")}>
            {selected.size ? `Reject ${selected.size} selected` : "Reject"} (R)
          </Button>
        </> : null}
        <span className="text-xs text-zinc-500">J/K move · E edit · X select · S score a grader</span>
        <span role="status" aria-live="polite" className="text-xs text-zinc-600">{status}</span>
        {undoable ? <Button size="sm" variant="ghost" disabled={revert.isPending} onClick={() => void undoEdit(undoable.id)}>Undo the edit</Button> : null}
      </div>
      <FormError error={decide.error} />
      <FormError error={revert.error} />
      {queue.isPending ? <LoadingState label="Loading the review queue" /> : queue.isError ? <ErrorState error={queue.error} onRetry={() => queue.refetch()} /> : items.length === 0 ? (
        <EmptyState title="Nothing to review">Assertions agents propose appear here until someone approves or rejects them.</EmptyState>
      ) : (
        <ol className="space-y-3" aria-label="Pending assertions">
          {items.map((a, i) => (
            <li key={a.id}>
              <PendingCard a={a} focused={a.id === current?.id} selected={selected.has(a.id)} onToggle={() => toggle(a.id)} onFocus={() => setCursor(i)}
                editing={editing === a.id} onEditDone={async (saved) => {
                  setEditing(null);
                  if (!saved) return;
                  setStatus("Saved the edit; the assertion still awaits a decision.");
                  // Only an edit that changed something kept a version to go back to.
                  const fields = ["assertion", "passCriteria", "failCriteria", "targetOnEvaluatedTrace", "check"] as const;
                  setUndoable(fields.some((k) => JSON.stringify(a[k]) !== JSON.stringify(saved[k])) ? { id: saved.id } : null);
                  await Promise.all([invalidate(), queryClient.invalidateQueries({ queryKey: trpc.assertions.pathKey() })]);
                }} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
