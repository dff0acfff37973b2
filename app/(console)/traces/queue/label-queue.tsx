"use client";
// The labelling queue: every trace the list's filter matches, one at a time. P / F record pass / fail with
// the note and advance; S opens the first grader score or category of the trace (Enter saves it, Escape cancels);
// in the note, Ctrl+Enter records pass and Ctrl+Shift+Enter fail, Escape leaves it
// (letters typed there are text, never verdicts); N skips, U undoes the last verdict and puts its note back in
// the field. A note not yet recorded stays with its trace. Keys pressed while the queue is still being built are
// refused with a message, never dropped in silence (a verdict on a trace not yet shown would be a guess).
// docs/console.md.
import { Link } from "@/components/ui/link.tsx";
import { useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { Textarea } from "@/components/ui/field.tsx";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states.tsx";
import { filterQuery, readFilters } from "../trace-filters.ts";
import { QueueTrace } from "./queue-trace.tsx";
import { useLabelQueue } from "./use-label-queue.ts";
import { useCan } from "../../_components/permissions.tsx";

const isTextField = (el: EventTarget | null) => el instanceof HTMLElement && el.closest("input, textarea, select, [contenteditable=true]") !== null;

/** A role that cannot label (viewer) is told so instead of being offered verdict buttons that answer 403. */
export function LabelQueue() {
  const canLabel = useCan("label");
  if (canLabel) return <Queue />;
  return (
    <Card>
      <EmptyState title="Your role cannot record verdicts">Viewers read traces and verdicts; a member, admin or owner labels them.</EmptyState>
    </Card>
  );
}

function Queue() {
  const params = useSearchParams();
  const filterKey = filterQuery(params);
  const queue = useLabelQueue(filterKey, readFilters(params));
  // Notes by queue position, in a ref as the queue's state is: keys pressed before a re-render each take the
  // note of their own trace. The state copy only re-renders the field.
  const drafts = useRef(new Map<number, string>());
  const [, setDraftsVersion] = useState(0);
  const [refused, setRefused] = useState<string | null>(null);
  const regionRef = useRef<HTMLDivElement>(null);
  const { state } = queue;
  const setDraft = (pos: number, text: string) => {
    if (text) drafts.current.set(pos, text);
    else drafts.current.delete(pos);
    setDraftsVersion((n) => n + 1);
  };
  const note = state ? (drafts.current.get(state.pos) ?? "") : "";

  const record = (label: boolean) => {
    const pos = queue.position();
    if (pos === null) return;
    queue.record(label, drafts.current.get(pos) ?? "");
    setDraft(pos, "");
  };
  const undo = () => {
    const undone = queue.undo();
    if (undone) setDraft(undone.pos, undone.annotation ?? "");
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey || e.repeat || isTextField(e.target)) return;
      const key = e.key.toLowerCase();
      if (!"pfnus".includes(key) || key.length !== 1) return;
      e.preventDefault();
      if (queue.position() === null) {
        setRefused(`The queue is still loading: “${key.toUpperCase()}” did nothing. Press it again once the first trace shows.`);
        return;
      }
      setRefused(null);
      if (key === "p") record(true);
      else if (key === "f") record(false);
      else if (key === "n") queue.skip();
      // S: the first score or category form of the trace's graders (its field takes the focus; Enter saves).
      else if (key === "s") regionRef.current?.querySelector<HTMLButtonElement>("[data-record-score]")?.click();
      else undo();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const onNoteKey = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Escape") {
      e.preventDefault();
      regionRef.current?.focus();
    } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      record(!e.shiftKey);
      regionRef.current?.focus();
    }
  };

  const back = `/traces${filterKey ? `?${filterKey}` : ""}`;
  if (queue.loadError) return <ErrorState error={queue.loadError} />;
  if (queue.loading || !state) {
    return (
      <div className="space-y-3">
        {refused ? <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{refused}</p> : null}
        <LoadingState label="Building the queue" />
      </div>
    );
  }
  const total = state.ids.length;
  const labelled = state.done.length;
  const traceId = state.ids[state.pos];

  return (
    <div ref={regionRef} tabIndex={-1} className="space-y-4 outline-none" aria-label="Labelling queue">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-zinc-700" aria-live="polite" data-testid="queue-progress">
          {traceId ? <><strong className="tabular-nums">{state.pos + 1} of {total}</strong> · </> : null}
          {labelled} labelled here{state.truncated ? ` · the filter matched more than ${total}; narrow it to see the rest` : ""}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" disabled={labelled === 0} onClick={undo}>Undo last (U)</Button>
          <Link href={back} className="inline-flex h-7 items-center rounded-md px-2.5 text-xs font-medium text-zinc-700 hover:bg-zinc-100">Back to the list</Link>
        </div>
      </div>
      <div aria-hidden className="h-1.5 overflow-hidden rounded-full bg-zinc-200">
        <div className="h-full bg-accent-600" style={{ width: `${total ? (Math.min(state.pos, total) / total) * 100 : 100}%` }} />
      </div>
      {queue.error ? <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">{queue.error}</p> : null}
      {total === 0 ? (
        <Card><EmptyState title="No traces match this filter" action={<Link className="text-accent-700 dark:text-accent-300 hover:underline" href={back}>Back to the list</Link>}>Change the filter on the trace list, then start the queue again.</EmptyState></Card>
      ) : !traceId ? (
        <Card>
          <EmptyState title="End of the queue" action={
            <div className="flex flex-wrap justify-center gap-2">
              <Link className="inline-flex h-9 items-center rounded-md bg-accent-600 px-3.5 text-sm font-medium text-on-accent hover:bg-accent-700" href={back}>Back to the filtered list</Link>
              <Button variant="secondary" onClick={queue.restart}>Start again with this filter</Button>
            </div>
          }>
            You went through all {total} traces and recorded {labelled} verdict{labelled === 1 ? "" : "s"}. Press U to undo the last one.
          </EmptyState>
        </Card>
      ) : (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <QueueTrace traceId={traceId} nextId={state.ids[state.pos + 1] ?? null} />
          <Card aria-label="Verdict" className="h-fit space-y-3 p-4">
            <p className="text-xs text-zinc-600">
              <kbd>P</kbd> pass · <kbd>F</kbd> fail · <kbd>N</kbd> skip · <kbd>U</kbd> undo · <kbd>S</kbd> score a grader. In the note: <kbd>Ctrl</kbd>+<kbd>Enter</kbd> pass,{" "}
              <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>Enter</kbd> fail, <kbd>Esc</kbd> leaves the note.
            </p>
            <label className="block text-xs font-medium text-zinc-600">
              Note (optional)
              <Textarea className="mt-1 min-h-20 text-sm" value={note} onChange={(e) => setDraft(state.pos, e.target.value)} onKeyDown={onNoteKey} placeholder="Why?" />
            </label>
            <div className="flex flex-wrap gap-2">
              <Button variant="pass" onClick={() => record(true)}>Pass (P)</Button>
              <Button variant="fail" onClick={() => record(false)}>Fail (F)</Button>
              <Button variant="ghost" onClick={queue.skip}>Skip (N)</Button>
            </div>
          </Card>
        </div>
      )}
    </div>
  );
}
