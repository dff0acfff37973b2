"use client";
// Deleted graders and assertions, restorable (docs/operations.md, "Deleting data").
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { formatDateTime, formatRelative } from "@/components/ui/format.ts";
import { EmptyState, ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { useCan } from "../_components/permissions.tsx";

export function DeletedCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const deleted = useQuery(trpc.lifecycle.deleted.queryOptions({}));
  const restore = useMutation(trpc.lifecycle.restore.mutationOptions({ onSuccess: () => queryClient.invalidateQueries() }));
  const canRestore = useCan("delete-data");
  return (
    <Card aria-labelledby="deleted-title">
      <CardHeader title={<span id="deleted-title">Deleted graders and assertions</span>} description="A deleted grader or assertion can be restored as it was." />
      {deleted.isPending ? <LoadingState label="Loading deleted items" /> : deleted.isError ? <ErrorState error={deleted.error} onRetry={() => deleted.refetch()} /> : deleted.data.tombstones.length === 0 ? (
        <EmptyState title="Nothing deleted" />
      ) : (
        <ul className="divide-y divide-zinc-100 text-sm">
          {deleted.data.tombstones.map((t) => (
            <li key={t.id} className="flex items-center justify-between gap-4 px-4 py-2">
              <span>
                <span className="text-zinc-500">{t.kind}</span> {t.name}{" "}
                <span className="text-xs text-zinc-400" title={formatDateTime(t.deletedAt)}>deleted {formatRelative(t.deletedAt)}</span>
              </span>
              {canRestore ? <Button size="sm" variant="secondary" disabled={restore.isPending} onClick={() => restore.mutate({ id: t.id })} aria-label={`Restore ${t.kind} ${t.name}`}>
                Restore
              </Button> : null}
            </li>
          ))}
        </ul>
      )}
      <FormError error={restore.error} />
    </Card>
  );
}
