"use client";
// Settings → Your account (docs/operations.md, "Sessions"): change one's own password (the current one required; every
// other session ends) and see and end one's console sessions.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Field, Input } from "@/components/ui/field.tsx";
import { formatDateTime, formatRelative } from "@/components/ui/format.ts";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";

export function AccountCard() {
  return (
    <Card aria-labelledby="account-title">
      <CardHeader title={<span id="account-title">Your account</span>} description="Your password and the browsers signed in as you." />
      <div className="grid gap-6 px-4 pb-4 *:min-w-0 md:grid-cols-2">
        <ChangePassword />
        <Sessions />
      </div>
    </Card>
  );
}

function ChangePassword() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ currentPassword: "", newPassword: "" });
  const change = useMutation(
    trpc.people.changePassword.mutationOptions({
      onSuccess: async () => {
        setForm({ currentPassword: "", newPassword: "" });
        await queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey() });
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(form);
  };
  return (
    <form onSubmit={submit} className="space-y-3" aria-labelledby="change-password-title">
      <h3 id="change-password-title" className="text-sm font-medium text-zinc-900">Change password</h3>
      <Field label="Current password">
        {(id) => <Input id={id} type="password" autoComplete="current-password" required value={form.currentPassword} onChange={(e) => setForm((f) => ({ ...f, currentPassword: e.target.value }))} />}
      </Field>
      <Field label="New password" hint="At least 8 characters. Your other sessions end.">
        {(id) => <Input id={id} type="password" autoComplete="new-password" required value={form.newPassword} onChange={(e) => setForm((f) => ({ ...f, newPassword: e.target.value }))} />}
      </Field>
      <FormError error={change.error} />
      {change.isSuccess ? <p role="status" className="text-sm text-emerald-700">Password changed; {change.data.endedSessions} other session(s) ended.</p> : null}
      <Button type="submit" disabled={change.isPending}>Change password</Button>
    </form>
  );
}

function Sessions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sessions = useQuery(trpc.session.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey() });
  const revoke = useMutation(trpc.session.revoke.mutationOptions({ onSuccess: refresh }));
  const revokeAll = useMutation(trpc.session.revokeAll.mutationOptions({ onSuccess: refresh }));
  return (
    <section aria-labelledby="sessions-title" className="space-y-2">
      <div className="flex items-center justify-between">
        <h3 id="sessions-title" className="text-sm font-medium text-zinc-900">Sessions</h3>
        <Button size="sm" variant="secondary" onClick={() => revokeAll.mutate()}>End other sessions</Button>
      </div>
      {sessions.isPending ? <LoadingState label="Loading sessions" /> : sessions.isError ? <ErrorState error={sessions.error} onRetry={() => sessions.refetch()} /> : (
        <ul className="divide-y divide-zinc-100 text-sm">
          {sessions.data.map((s) => (
            <li key={s.id} className="flex items-center justify-between gap-2 py-2">
              <span className="min-w-0">
                <span className="block truncate" title={s.userAgent}>{s.userAgent || "Unknown browser"}</span>
                <span className="text-xs text-zinc-500">
                  {s.ip || "unknown address"} · {s.method === "sso" ? "single sign-on" : "password"} · last used <span title={formatDateTime(s.lastSeenAt)}>{formatRelative(s.lastSeenAt)}</span> · ends by {formatDateTime(s.idleExpiresAt)} if unused
                </span>
              </span>
              {s.current ? <Badge tone="accent">This browser</Badge> : (
                <Button size="sm" variant="danger" aria-label={`End session ${s.userAgent || s.id}`} onClick={() => revoke.mutate({ id: s.id })}>End</Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormError error={revoke.error ?? revokeAll.error} />
    </section>
  );
}
