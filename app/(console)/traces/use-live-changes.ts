"use client";
// Keeps the trace list and the trace page live (docs/api/console.md, "Live lists and pages"): every interval the
// page asks traces.changes, one cheap statement, and reads its data again only when the answer differs from
// the `live` that its last read returned. No request while the tab is hidden (TanStack Query's default).
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";

/** How often an open list or trace page polls. */
export const LIVE_INTERVAL_MS = 5_000;

type TLive = RouterOutputs["traces"]["changes"];

export function useLiveChanges({ traceIds, read, readAt, watchNewest, onStale }: {
  /** The traces the page shows (at most 100). */
  traceIds: string[];
  /** What the page's last read said (its answer's `live`); undefined while it loads. */
  read: TLive | undefined;
  /** When that read was answered (the query's dataUpdatedAt): the first poll comes one interval after it. */
  readAt: number;
  /** Whether a newer trace in the organization concerns the page (the list's first page). */
  watchNewest: boolean;
  onStale: () => void;
}) {
  const trpc = useTRPC();
  const changes = useQuery({
    ...trpc.traces.changes.queryOptions({ traceIds }),
    enabled: read !== undefined,
    initialData: read,
    initialDataUpdatedAt: readAt,
    staleTime: LIVE_INTERVAL_MS,
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const now = changes.data;
  const stale = read !== undefined && now !== undefined && ((watchNewest && now.newest !== read.newest) || now.watched !== read.watched);
  // Keyed by both answers, so a change seen while the page was reading again still triggers another read.
  const staleKey = stale ? `${now.newest}|${now.watched}|${read.newest}|${read.watched}` : null;
  const callback = useRef(onStale);
  callback.current = onStale;
  useEffect(() => {
    if (staleKey !== null) callback.current();
  }, [staleKey]);
}
