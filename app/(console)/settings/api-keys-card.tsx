"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { Field, Input, Select } from "@/components/ui/field.tsx";
import { formatDateTime, formatRelative } from "@/components/ui/format.ts";
import { EmptyState, ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { useCan } from "../_components/permissions.tsx";

type ApiKeyRow = RouterOutputs["apiKeys"]["list"][number];
type TScopeChoice = ApiKeyRow["scope"] & ("ingest" | "read" | "read-write" | "admin");

const SCOPE_CHOICES: TScopeChoice[] = ["ingest", "read", "read-write", "admin"];
// docs/operations.md, "Roles and API key scopes".
const SCOPE_HINTS: Record<TScopeChoice, string> = {
  ingest: "What an app embeds: writes spans and traces, reads the sim plan, reads nothing else.",
  read: "Reads traces, labels, datasets, graders and experiments; writes nothing.",
  "read-write": "For agents and CI: also labels, curates datasets and assertions, starts replays.",
  admin: "Everything its user's role allows, graders and the sim plan included.",
};

export function ApiKeysCard() {
  const trpc = useTRPC();
  const keys = useQuery(trpc.apiKeys.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const canManage = useCan("manage-keys");
  return (
    <Card aria-labelledby="api-keys-title">
      <CardHeader
        title={<span id="api-keys-title">API keys</span>}
        description="SDKs and OpenTelemetry collectors send 'Authorization: Bearer <key>'. A key acts as the user who created it, within its scope."
        actions={canManage ? <Button onClick={() => setCreating(true)}>Create API key</Button> : null}
      />
      {keys.isPending ? <LoadingState label="Loading keys" /> : keys.isError ? <ErrorState error={keys.error} onRetry={() => keys.refetch()} /> : keys.data.length === 0 ? (
        <EmptyState title="No API keys yet">Create one, then set it as REPRISE_API_KEY where your app runs.</EmptyState>
      ) : (
        <KeysTable rows={keys.data} canManage={canManage} />
      )}
      <CreateKeyDialog open={creating} onOpenChange={setCreating} />
    </Card>
  );
}

function KeysTable({ rows, canManage }: { rows: ApiKeyRow[]; canManage: boolean }) {
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-zinc-500">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">Name</th>
            <th scope="col" className="px-4 py-2 font-medium">Key</th>
            <th scope="col" className="px-4 py-2 font-medium">Scope</th>
            <th scope="col" className="px-4 py-2 font-medium">Owner</th>
            <th scope="col" className="px-4 py-2 font-medium">Created</th>
            <th scope="col" className="px-4 py-2 font-medium">Expires</th>
            <th scope="col" className="px-4 py-2 font-medium">Last used</th>
            <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {rows.map((row) => <KeyRow key={row.id} row={row} canManage={canManage} />)}
        </tbody>
      </table>
    </div>
  );
}

function KeyRow({ row, canManage }: { row: ApiKeyRow; canManage: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() }) }),
  );
  const label = row.name || "Unnamed key";
  const expired = row.expiresAt !== null && new Date(row.expiresAt).getTime() <= Date.now();
  return (
    <tr className={row.revokedAt ? "text-zinc-400" : undefined}>
      <td className="px-4 py-2">{label}</td>
      <td className="px-4 py-2 font-mono text-xs">{row.prefix}</td>
      <td className="px-4 py-2"><Badge>{row.scope}</Badge></td>
      <td className="px-4 py-2">{row.ownerEmail}</td>
      <td className="px-4 py-2" title={formatDateTime(row.createdAt)}>{formatRelative(row.createdAt)}</td>
      <td className="px-4 py-2" title={row.expiresAt ? formatDateTime(row.expiresAt) : undefined}>
        {row.expiresAt ? (expired ? "Expired" : formatDateTime(row.expiresAt)) : "Never"}
      </td>
      <td className="px-4 py-2" title={row.lastUsedAt ? formatDateTime(row.lastUsedAt) : undefined}>{row.lastUsedAt ? formatRelative(row.lastUsedAt) : "Never"}</td>
      <td className="px-4 py-2 text-right">
        {row.revokedAt ? (
          <Badge>Revoked</Badge>
        ) : !canManage ? null : (
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
  const [scope, setScope] = useState<TScopeChoice>("read-write");
  const [expiry, setExpiry] = useState("");
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() }) }),
  );
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      create.reset();
      setName("");
      setScope("read-write");
      setExpiry("");
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, scope, expiresInDays: expiry === "" ? undefined : Number(expiry) });
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
          <Field label="Scope" hint={SCOPE_HINTS[scope]}>
            {(id) => (
              <Select id={id} value={scope} onChange={(e) => setScope(e.target.value as TScopeChoice)}>
                {SCOPE_CHOICES.map((s) => <option key={s} value={s}>{s}</option>)}
              </Select>
            )}
          </Field>
          <Field label="Expires" hint="An expired key answers 401.">
            {(id) => (
              <Select id={id} value={expiry} onChange={(e) => setExpiry(e.target.value)}>
                <option value="">Never</option>
                <option value="7">In 7 days</option>
                <option value="30">In 30 days</option>
                <option value="90">In 90 days</option>
                <option value="365">In a year</option>
              </Select>
            )}
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
