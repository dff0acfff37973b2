"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { Field, Input } from "@/components/ui/field.tsx";
import { formatDateTime, formatRelative } from "@/components/ui/format.ts";
import { EmptyState, ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";

type ApiKeyRow = RouterOutputs["apiKeys"]["list"][number];

export function ApiKeysCard() {
  const trpc = useTRPC();
  const keys = useQuery(trpc.apiKeys.list.queryOptions());
  const [creating, setCreating] = useState(false);
  return (
    <Card aria-labelledby="api-keys-title">
      <CardHeader
        title={<span id="api-keys-title">API keys</span>}
        description="SDKs and OpenTelemetry collectors send 'Authorization: Bearer <key>'. A key acts as the user who created it."
        actions={<Button onClick={() => setCreating(true)}>Create API key</Button>}
      />
      {keys.isPending ? <LoadingState label="Loading keys" /> : keys.isError ? <ErrorState error={keys.error} onRetry={() => keys.refetch()} /> : keys.data.length === 0 ? (
        <EmptyState title="No API keys yet">Create one, then set it as REPRISE_API_KEY where your app runs.</EmptyState>
      ) : (
        <KeysTable rows={keys.data} />
      )}
      <CreateKeyDialog open={creating} onOpenChange={setCreating} />
    </Card>
  );
}

function KeysTable({ rows }: { rows: ApiKeyRow[] }) {
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-zinc-500">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">Name</th>
            <th scope="col" className="px-4 py-2 font-medium">Key</th>
            <th scope="col" className="px-4 py-2 font-medium">Owner</th>
            <th scope="col" className="px-4 py-2 font-medium">Created</th>
            <th scope="col" className="px-4 py-2 font-medium">Last used</th>
            <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {rows.map((row) => <KeyRow key={row.id} row={row} />)}
        </tbody>
      </table>
    </div>
  );
}

function KeyRow({ row }: { row: ApiKeyRow }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() }) }),
  );
  const label = row.name || "Unnamed key";
  return (
    <tr className={row.revokedAt ? "text-zinc-400" : undefined}>
      <td className="px-4 py-2">{label}</td>
      <td className="px-4 py-2 font-mono text-xs">{row.prefix}</td>
      <td className="px-4 py-2">{row.ownerEmail}</td>
      <td className="px-4 py-2" title={formatDateTime(row.createdAt)}>{formatRelative(row.createdAt)}</td>
      <td className="px-4 py-2" title={row.lastUsedAt ? formatDateTime(row.lastUsedAt) : undefined}>{formatRelative(row.lastUsedAt)}</td>
      <td className="px-4 py-2 text-right">
        {row.revokedAt ? (
          <Badge>Revoked</Badge>
        ) : (
          <Button
            variant="danger"
            size="sm"
            aria-label={`Revoke ${label} (${row.prefix})`}
            disabled={revoke.isPending}
            onClick={() => {
              if (window.confirm(`Revoke ${label}? Apps using it will get 401 at once.`)) revoke.mutate({ id: row.id });
            }}
          >
            Revoke
          </Button>
        )}
      </td>
    </tr>
  );
}

function CreateKeyDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() }) }),
  );
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      create.reset();
      setName("");
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name });
  };
  return (
    <Dialog open={open} onOpenChange={close} title={create.data ? "Your new API key" : "Create API key"}>
      {create.data ? (
        <div className="space-y-4">
          <p className="text-sm text-zinc-600">Copy it now: it is shown only this once. Reprise stores only a hash.</p>
          <div className="flex items-center gap-2">
            <code aria-label="New API key" className="min-w-0 flex-1 overflow-x-auto rounded-md bg-zinc-100 px-3 py-2 font-mono text-xs whitespace-nowrap">
              {create.data.apiKey}
            </code>
            <CopyButton value={create.data.apiKey} />
          </div>
          <div className="flex justify-end">
            <Button onClick={() => close(false)}>Done</Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4">
          <Field label="Name" hint="Where the key is used, e.g. 'production API'.">
            {(id) => <Input id={id} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <FormError error={create.error} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => close(false)}>Cancel</Button>
            <Button type="submit" disabled={create.isPending}>Create</Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
