"use client";
// The labelling queue's state: a snapshot of every trace id the filter matched (traces.queue), the position,
// and the verdicts recorded here (for undo). Kept in sessionStorage per filter, so a reload resumes where
// the labeller was. Verdicts are written in the background and the queue advances at once, so a fast
// labeller's next key always lands on the next trace; state lives in a ref so two keys pressed before a
// re-render still label two different traces.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterInputs } from "@/components/trpc/types.ts";

interface Done {
  pos: number;
  traceId: string;
  label: boolean;
  /** The note recorded with it: an undo puts it back in the note field. */
  annotation?: string;
  /** The verdict's id once written (null if the write failed). */
  labelId?: string | null;
}
interface QueueState {
  ids: string[];
  truncated: boolean;
  pos: number;
  done: Done[];
}

const storageKey = (filterKey: string) => `reprise.labelQueue:${filterKey}`;

function load(filterKey: string): QueueState | null {
  try {
    const raw = sessionStorage.getItem(storageKey(filterKey));
    return raw ? (JSON.parse(raw) as QueueState) : null;
  } catch {
    return null;
  }
}

export function useLabelQueue(filterKey: string, filters: RouterInputs["traces"]["queue"]) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const ref = useRef<QueueState | null>(null);
  const pending = useRef(new Map<string, Promise<string | null>>());
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [checked, setChecked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation(trpc.labels.saveHuman.mutationOptions());
  const undoVerdict = useMutation(trpc.labels.undo.mutationOptions());

  const commit = useCallback((next: QueueState | null) => {
    ref.current = next;
    try {
      if (next) sessionStorage.setItem(storageKey(filterKey), JSON.stringify(next));
      else sessionStorage.removeItem(storageKey(filterKey));
    } catch {
      // Storage disabled: the queue still works, a reload starts it again.
    }
    rerender();
  }, [filterKey]);

  useEffect(() => {
    ref.current = load(filterKey);
    setChecked(true);
    rerender();
  }, [filterKey]);

  const snapshot = useQuery({ ...trpc.traces.queue.queryOptions(filters), enabled: checked && ref.current === null, staleTime: Infinity, gcTime: 0 });
  useEffect(() => {
    if (snapshot.data && ref.current === null) commit({ ids: snapshot.data.ids, truncated: snapshot.data.truncated, pos: 0, done: [] });
  }, [snapshot.data, commit]);

  const refresh = (traceId: string) => queryClient.invalidateQueries({ queryKey: trpc.traces.get.queryKey({ id: traceId }) });

  /** Records a verdict on the current trace and advances. */
  const record = (label: boolean, annotation: string) => {
    const s = ref.current;
    if (!s || s.pos >= s.ids.length) return;
    const traceId = s.ids[s.pos]!;
    const entry: Done = { pos: s.pos, traceId, label, annotation };
    const key = `${s.pos}:${traceId}`;
    const written = save
      .mutateAsync({ traceId, assertionId: null, label, annotation: annotation.trim() || null })
      .then((r) => r.id)
      .catch((e: Error) => {
        setError(`The verdict on trace ${traceId.slice(0, 8)}… was not saved: ${e.message}`);
        return null;
      })
      .then((id) => {
        const cur = ref.current;
        const d = cur?.done.find((x) => x.pos === entry.pos && x.traceId === traceId);
        if (cur && d) commit({ ...cur, done: cur.done.map((x) => (x === d ? { ...x, labelId: id } : x)) });
        void refresh(traceId);
        return id;
      });
    pending.current.set(key, written);
    commit({ ...s, pos: s.pos + 1, done: [...s.done, entry] });
  };

  const skip = () => {
    const s = ref.current;
    if (s && s.pos < s.ids.length) commit({ ...s, pos: s.pos + 1 });
  };

  /**
   * Undoes the last verdict recorded in this queue and goes back to its trace. Returns at once (before the
   * write) what was undone, so the caller can put its note back; null when there is nothing to undo.
   */
  const undo = (): Done | null => {
    const s = ref.current;
    const last = s?.done.at(-1);
    if (!s || !last) return null;
    commit({ ...s, pos: last.pos, done: s.done.slice(0, -1) });
    void (async () => {
      const id = last.labelId ?? (await pending.current.get(`${last.pos}:${last.traceId}`)) ?? null;
      if (!id) return;
      try {
        await undoVerdict.mutateAsync({ id });
        setError(null);
      } catch (e) {
        setError(`Undo failed: ${(e as Error).message}`);
      }
      void refresh(last.traceId);
    })();
    return last;
  };

  /** The position now, read from the ref: two keys pressed before a re-render see two positions. */
  const position = () => ref.current?.pos ?? null;

  const restart = () => {
    commit(null);
    void snapshot.refetch().then((r) => r.data && commit({ ids: r.data.ids, truncated: r.data.truncated, pos: 0, done: [] }));
  };

  return { state: ref.current, position, loading: !ref.current && (snapshot.isPending || !checked), loadError: snapshot.error, error, record, skip, undo, restart };
}
