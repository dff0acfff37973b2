"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { Field, Input, Select } from "@/components/ui/field.tsx";
import { formatRelative } from "@/components/ui/format.ts";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { useCan } from "../_components/permissions.tsx";
import { ROLE_CHOICES, RoleSelect, type TRoleChoice } from "./role-select.tsx";

export function UsersCard() {
  const trpc = useTRPC();
  const users = useQuery(trpc.users.list.queryOptions());
  const [adding, setAdding] = useState(false);
  const canManage = useCan("manage-users");
  return (
    <Card aria-labelledby="users-title">
      <CardHeader
        title={<span id="users-title">Users</span>}
        description="Everyone here can sign in to this organization's console."
        actions={canManage ? <Button variant="secondary" onClick={() => setAdding(true)}>Add user</Button> : null}
      />
      {users.isPending ? <LoadingState label="Loading users" /> : users.isError ? <ErrorState error={users.error} onRetry={() => users.refetch()} /> : (
        <ul className="divide-y divide-zinc-100">
          {users.data.map((u) => (
            <li key={u.id} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-2.5">
              <span>
                <span className="font-medium text-zinc-900">{u.name ?? u.email}</span>
                {u.name ? <span className="ml-2 text-zinc-500">{u.email}</span> : null}
              </span>
              <span className="flex items-baseline gap-3 text-xs text-zinc-500">added {formatRelative(u.createdAt)} <RoleSelect user={u} /></span>
            </li>
          ))}
        </ul>
      )}
      <AddUserDialog open={adding} onOpenChange={setAdding} />
    </Card>
  );
}

function AddUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ email: "", name: "", password: "", role: "member" as TRoleChoice });
  const create = useMutation(
    trpc.users.create.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.users.list.queryKey() });
        setForm({ email: "", name: "", password: "", role: "member" });
        onOpenChange(false);
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ email: form.email, name: form.name || undefined, password: form.password, role: form.role });
  };
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  return (
    <Dialog open={open} onOpenChange={(o) => { onOpenChange(o); if (!o) create.reset(); }} title="Add user" description="They sign in with this email and password.">
      <form onSubmit={submit} className="space-y-4">
        <Field label="Email">{(id) => <Input id={id} type="email" required value={form.email} onChange={set("email")} />}</Field>
        <Field label="Name (optional)">{(id) => <Input id={id} value={form.name} onChange={set("name")} />}</Field>
        <Field label="Password" hint="At least 8 characters.">
          {(id) => <Input id={id} type="password" autoComplete="new-password" required value={form.password} onChange={set("password")} />}
        </Field>
        <Field label="Role" hint="Viewers read; members also label, curate and replay; admins also manage graders, the sim plan, keys and users.">
          {(id) => (
            <Select id={id} value={form.role} onChange={set("role")}>
              {ROLE_CHOICES.map((r) => <option key={r} value={r}>{r}</option>)}
            </Select>
          )}
        </Field>
        <FormError error={create.error} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" disabled={create.isPending}>Add user</Button>
        </div>
      </form>
    </Dialog>
  );
}
