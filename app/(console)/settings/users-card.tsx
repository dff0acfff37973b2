"use client";
// Settings → People (docs/operations.md, "People and invitations"): who belongs to the organization, their roles,
// invitations by link, removal and restore, one-time reset links, and ending someone's sessions.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { Field, Input, Select } from "@/components/ui/field.tsx";
import { formatDateTime, formatRelative } from "@/components/ui/format.ts";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { ROLE_CHOICES, type TRoleChoice } from "./role-select.tsx";

const ROLES = ["owner", "admin", "member", "viewer"] as const;
type Person = RouterOutputs["people"]["list"]["people"][number];

export function UsersCard() {
  const trpc = useTRPC();
  const people = useQuery(trpc.people.list.queryOptions());
  const [adding, setAdding] = useState(false);
  const [inviting, setInviting] = useState(false);
  const [link, setLink] = useState<{ title: string; url: string } | null>(null);
  const canManage = people.data?.me.canManage ?? false;
  return (
    <Card aria-labelledby="users-title">
      <CardHeader
        title={<span id="users-title">People</span>}
        description="Everyone here can sign in to this organization's console, with their role's rights."
        actions={canManage ? (
          <div className="flex gap-2">
            <Button onClick={() => setInviting(true)}>Invite</Button>
            <Button variant="secondary" onClick={() => setAdding(true)}>Add user</Button>
          </div>
        ) : undefined}
      />
      {people.isPending ? <LoadingState label="Loading people" /> : people.isError ? <ErrorState error={people.error} onRetry={() => people.refetch()} /> : (
        <ul className="divide-y divide-zinc-100">
          {people.data.people.map((p) => (
            <PersonRow key={p.id} person={p} canManage={canManage} isMe={p.id === people.data.me.userId} onLink={setLink} />
          ))}
        </ul>
      )}
      {canManage ? <Invitations /> : null}
      <AddUserDialog open={adding} onOpenChange={setAdding} />
      <InviteDialog open={inviting} onOpenChange={setInviting} onLink={setLink} />
      <LinkDialog link={link} onClose={() => setLink(null)} />
    </Card>
  );
}

function PersonRow({ person, canManage, isMe, onLink }: { person: Person; canManage: boolean; isMe: boolean; onLink: (l: { title: string; url: string }) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.people.list.queryKey() });
  const remove = useMutation(trpc.people.remove.mutationOptions({ onSuccess: refresh }));
  const restore = useMutation(trpc.people.restore.mutationOptions({ onSuccess: refresh }));
  const changeRole = useMutation(trpc.people.changeRole.mutationOptions({ onSuccess: refresh }));
  const reset = useMutation(
    trpc.people.createPasswordReset.mutationOptions({
      onSuccess: (r) => onLink({ title: `Password reset link for ${person.email}`, url: new URL(r.path, window.location.origin).toString() }),
    }),
  );
  const [showSessions, setShowSessions] = useState(false);
  const label = person.name ?? person.email;
  const error = remove.error ?? restore.error ?? changeRole.error ?? reset.error;
  return (
    <li className={`flex flex-wrap items-center justify-between gap-2 px-4 py-2.5 ${person.removedAt ? "text-zinc-400" : ""}`}>
      <span>
        <span className="font-medium">{label}</span>
        {person.name ? <span className="ml-2 text-zinc-500">{person.email}</span> : null}
        {isMe ? <span className="ml-2 text-xs text-zinc-500">(you)</span> : null}
        <span className="ml-2 text-xs text-zinc-500" title={formatDateTime(person.createdAt)}>added {formatRelative(person.createdAt)}</span>
      </span>
      <span className="flex flex-wrap items-center gap-2">
        {person.removedAt ? <Badge tone="warn">Removed</Badge> : null}
        {canManage && !person.removedAt ? (
          <Select aria-label={`Role of ${person.email}`} value={person.role} disabled={changeRole.isPending} onChange={(e) => changeRole.mutate({ userId: person.id, role: e.target.value as (typeof ROLES)[number] })}>
            {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
          </Select>
        ) : (
          <Badge>{person.role}</Badge>
        )}
        {canManage && !isMe && !person.removedAt ? (
          <>
            <Button size="sm" variant="secondary" aria-label={`Reset password of ${person.email}`} onClick={() => reset.mutate({ userId: person.id })}>Reset password</Button>
            <Button size="sm" variant="secondary" aria-label={`Sessions of ${person.email}`} onClick={() => setShowSessions(true)}>Sessions</Button>
            <Button
              size="sm"
              variant="danger"
              aria-label={`Remove ${person.email}`}
              onClick={() => { if (window.confirm(`Remove ${person.email}? Their sessions and API keys end at once. You can restore them later.`)) remove.mutate({ userId: person.id }); }}
            >
              Remove
            </Button>
          </>
        ) : null}
        {canManage && person.removedAt ? (
          <Button size="sm" variant="secondary" aria-label={`Restore ${person.email}`} onClick={() => restore.mutate({ userId: person.id })}>Restore</Button>
        ) : null}
      </span>
      {error ? <div className="w-full"><FormError error={error} /></div> : null}
      {showSessions ? <PersonSessionsDialog person={person} onClose={() => setShowSessions(false)} /> : null}
    </li>
  );
}

/** Another person's console sessions (admins and owners): each can be ended, or all at once. */
function PersonSessionsDialog({ person, onClose }: { person: Person; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sessions = useQuery(trpc.session.list.queryOptions({ userId: person.id }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey({ userId: person.id }) });
  const revoke = useMutation(trpc.session.revoke.mutationOptions({ onSuccess: refresh }));
  const revokeAll = useMutation(trpc.session.revokeAll.mutationOptions({ onSuccess: refresh }));
  return (
    <Dialog open onOpenChange={(o) => { if (!o) onClose(); }} title={`Sessions of ${person.email}`} description="Browsers signed in as them. Ending one signs that browser out at once.">
      <div className="space-y-3">
        {sessions.isPending ? <LoadingState label="Loading sessions" /> : sessions.isError ? <ErrorState error={sessions.error} /> : sessions.data.length === 0 ? (
          <p className="text-sm text-zinc-500">No live sessions.</p>
        ) : (
          <ul className="divide-y divide-zinc-100 text-sm">
            {sessions.data.map((s) => (
              <li key={s.id} className="flex items-center justify-between gap-2 py-2">
                <span className="min-w-0">
                  <span className="block truncate" title={s.userAgent}>{s.userAgent || "Unknown browser"}</span>
                  <span className="text-xs text-zinc-500">{s.ip || "unknown address"} · {s.method === "sso" ? "single sign-on" : "password"} · last used {formatRelative(s.lastSeenAt)}</span>
                </span>
                <Button size="sm" variant="danger" onClick={() => revoke.mutate({ id: s.id, userId: person.id })}>End</Button>
              </li>
            ))}
          </ul>
        )}
        <FormError error={revoke.error ?? revokeAll.error} />
        <div className="flex justify-end gap-2">
          <Button variant="danger" disabled={!sessions.data?.length} onClick={() => revokeAll.mutate({ userId: person.id })}>End all</Button>
          <Button variant="secondary" onClick={onClose}>Close</Button>
        </div>
      </div>
    </Dialog>
  );
}

function Invitations() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const invitations = useQuery(trpc.people.invitations.queryOptions());
  const revoke = useMutation(trpc.people.revokeInvitation.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.people.invitations.queryKey() }) }));
  const open = invitations.data?.filter((i) => i.status === "pending") ?? [];
  if (open.length === 0) return null;
  return (
    <section aria-labelledby="invitations-title" className="border-t border-zinc-100">
      <h3 id="invitations-title" className="px-4 pt-3 text-xs font-medium text-zinc-500">Open invitations</h3>
      <ul className="divide-y divide-zinc-100">
        {open.map((i) => (
          <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-2">
            <span>{i.email} <Badge>{i.role}</Badge> <span className="text-xs text-zinc-500">expires {formatRelative(i.expiresAt)}</span></span>
            <Button size="sm" variant="danger" aria-label={`Revoke invitation of ${i.email}`} onClick={() => revoke.mutate({ id: i.id })}>Revoke</Button>
          </li>
        ))}
      </ul>
      <FormError error={revoke.error} />
    </section>
  );
}

function InviteDialog({ open, onOpenChange, onLink }: { open: boolean; onOpenChange: (o: boolean) => void; onLink: (l: { title: string; url: string }) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<(typeof ROLES)[number]>("member");
  const invite = useMutation(
    trpc.people.invite.mutationOptions({
      onSuccess: async (r) => {
        await queryClient.invalidateQueries({ queryKey: trpc.people.invitations.queryKey() });
        onOpenChange(false);
        setEmail("");
        onLink({ title: `Invitation for ${r.invitation.email}`, url: new URL(r.path, window.location.origin).toString() });
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate({ email, role, expiresInDays: 7 });
  };
  return (
    <Dialog open={open} onOpenChange={(o) => { onOpenChange(o); if (!o) invite.reset(); }} title="Invite someone" description="They get a link to choose their own password. It works once and expires in 7 days.">
      <form onSubmit={submit} className="space-y-4">
        <Field label="Email">{(id) => <Input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}</Field>
        <Field label="Role">
          {(id) => <Select id={id} value={role} onChange={(e) => setRole(e.target.value as (typeof ROLES)[number])}>{ROLES.map((r) => <option key={r} value={r}>{r}</option>)}</Select>}
        </Field>
        <FormError error={invite.error} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" disabled={invite.isPending}>Create invitation link</Button>
        </div>
      </form>
    </Dialog>
  );
}

/** A link shown this once (the server keeps only its hash). */
function LinkDialog({ link, onClose }: { link: { title: string; url: string } | null; onClose: () => void }) {
  return (
    <Dialog open={link !== null} onOpenChange={(o) => { if (!o) onClose(); }} title={link?.title ?? ""} description="Copy it now and send it to them: it is shown only this once.">
      <div className="space-y-4">
        <p className="break-all rounded bg-zinc-50 p-2 font-mono text-xs" data-testid="one-time-link">{link?.url}</p>
        <div className="flex justify-end gap-2">
          {link ? <CopyButton value={link.url} /> : null}
          <Button onClick={onClose}>Done</Button>
        </div>
      </div>
    </Dialog>
  );
}

function AddUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ email: "", name: "", password: "", role: "member" as TRoleChoice });
  const create = useMutation(
    trpc.users.create.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.people.list.queryKey() });
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
    <Dialog open={open} onOpenChange={(o) => { onOpenChange(o); if (!o) create.reset(); }} title="Add user" description="They sign in with this email and password. To let them choose their own, invite them instead.">
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
