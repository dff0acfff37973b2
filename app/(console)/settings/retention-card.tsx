"use client";
// The organization's retention period (docs/operations.md, "Retention"): whole days, or kept forever. Each change
// is listed with what it replaced, so it can be set back.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Field, Input } from "@/components/ui/field.tsx";
import { formatDateTime, formatRelative } from "@/components/ui/format.ts";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";

const describe = (days: number | null) => (days === null ? "kept forever" : `${days} day${days === 1 ? "" : "s"}`);

export function RetentionCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const retention = useQuery(trpc.lifecycle.retention.queryOptions());
  const [days, setDays] = useState<string | null>(null);
  const save = useMutation(
    trpc.lifecycle.setRetention.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.lifecycle.retention.queryKey(), data);
        setDays(null);
      },
    }),
  );
  const current = retention.data?.retentionDays ?? null;
  const value = days ?? (current === null ? "" : String(current));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const retentionDays = value.trim() === "" ? null : Number(value);
    const message = retentionDays === null
      ? "Keep traces forever?"
      : `Remove traces older than ${retentionDays} days (except pinned ones and dataset members) at the next sweep?`;
    if (window.confirm(message)) save.mutate({ retentionDays });
  };
  return (
    <Card aria-labelledby="retention-title">
      <CardHeader
        title={<span id="retention-title">Retention</span>}
        description="Traces older than this are removed with their spans and labels by an hourly sweep. Pinned traces and traces in a dataset are kept. Empty: keep forever."
      />
      {retention.isPending ? <LoadingState label="Loading retention" /> : retention.isError ? <ErrorState error={retention.error} onRetry={() => retention.refetch()} /> : (
        <div className="space-y-4 px-4 pb-4">
          <p className="text-sm text-zinc-600">Now: <strong>{describe(current)}</strong>.</p>
          <form onSubmit={submit} className="flex items-end gap-2">
            <Field label="Retention period (days)" hint="A whole number of days, at least 1; empty keeps traces forever.">
              {(id) => <Input id={id} inputMode="numeric" value={value} onChange={(e) => setDays(e.target.value)} className="w-32" />}
            </Field>
            <Button type="submit" disabled={save.isPending}>Save retention</Button>
          </form>
          <FormError error={save.error} />
          {retention.data.changes.length > 0 ? (
            <ul aria-label="Retention changes" className="space-y-1 text-xs text-zinc-500">
              {retention.data.changes.map((c) => (
                <li key={c.changedAt} title={formatDateTime(c.changedAt)}>
                  {formatRelative(c.changedAt)}: {describe(c.previousDays)} → {describe(c.retentionDays)} ({c.changedVia})
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      )}
    </Card>
  );
}
