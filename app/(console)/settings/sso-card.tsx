"use client";
// Settings → Single sign-on (docs/operations.md, "Single sign-on"): the organization's OpenID Connect provider. The
// client secret is never shown back: leave it empty to keep the stored one.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Field, Input, Select } from "@/components/ui/field.tsx";
import { formatRelative } from "@/components/ui/format.ts";
import { Switch } from "@/components/ui/switch.tsx";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";

const ROLES = ["admin", "member", "viewer"] as const;
const EMPTY = { issuer: "", clientId: "", clientSecret: "", enabled: true, jitDomains: "", jitRole: "member" as (typeof ROLES)[number] | "owner", passwordSignIn: true };

export function SsoCard({ canManage }: { canManage: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const config = useQuery(trpc.sso.get.queryOptions());
  const [form, setForm] = useState(EMPTY);
  useEffect(() => {
    if (config.data) setForm({ ...config.data, clientSecret: "", jitDomains: config.data.jitDomains.join(", "), jitRole: config.data.jitRole as typeof EMPTY.jitRole });
  }, [config.data]);
  const save = useMutation(
    trpc.sso.set.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.sso.get.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.sso.versions.queryKey() });
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      issuer: form.issuer,
      clientId: form.clientId,
      clientSecret: form.clientSecret || undefined,
      enabled: form.enabled,
      jitDomains: form.jitDomains.split(",").map((d) => d.trim()).filter(Boolean),
      jitRole: form.jitRole,
      passwordSignIn: form.passwordSignIn,
    });
  };
  const callback = typeof window === "undefined" ? "/api/auth/sso/callback" : `${window.location.origin}/api/auth/sso/callback`;
  return (
    <Card aria-labelledby="sso-title">
      <CardHeader
        title={<span id="sso-title">Single sign-on</span>}
        description={`Sign in with your OpenID Connect provider (Google, Microsoft Entra, Okta, Keycloak…). Register ${callback} as its redirect URI.`}
      />
      {config.isPending ? <LoadingState label="Loading single sign-on" /> : config.isError ? <ErrorState error={config.error} onRetry={() => config.refetch()} /> : (
        <form onSubmit={submit} className="grid gap-4 px-4 pb-4 md:grid-cols-2">
          <Field label="Issuer URL" hint="Its discovery document is read from <issuer>/.well-known/openid-configuration.">
            {(id) => <Input id={id} type="url" required disabled={!canManage} value={form.issuer} onChange={(e) => setForm((f) => ({ ...f, issuer: e.target.value }))} />}
          </Field>
          <Field label="Client ID">{(id) => <Input id={id} required disabled={!canManage} value={form.clientId} onChange={(e) => setForm((f) => ({ ...f, clientId: e.target.value }))} />}</Field>
          <Field label="Client secret" hint={config.data?.hasClientSecret ? "Stored. Leave empty to keep it." : "Required."}>
            {(id) => <Input id={id} type="password" autoComplete="off" disabled={!canManage} value={form.clientSecret} onChange={(e) => setForm((f) => ({ ...f, clientSecret: e.target.value }))} />}
          </Field>
          <Field label="Domains that join on first sign-in" hint="Comma-separated, e.g. example.com. Empty: invitations only.">
            {(id) => <Input id={id} disabled={!canManage} value={form.jitDomains} onChange={(e) => setForm((f) => ({ ...f, jitDomains: e.target.value }))} />}
          </Field>
          <Field label="Their role">
            {(id) => (
              <Select id={id} disabled={!canManage} value={form.jitRole} onChange={(e) => setForm((f) => ({ ...f, jitRole: e.target.value as typeof EMPTY.jitRole }))}>
                {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
              </Select>
            )}
          </Field>
          <div className="space-y-3">
            <label className="flex items-center gap-2 text-sm"><Switch label="Single sign-on enabled" disabled={!canManage} checked={form.enabled} onCheckedChange={(v) => setForm((f) => ({ ...f, enabled: v }))} /> Enabled</label>
            <label className="flex items-center gap-2 text-sm"><Switch label="Password sign-in allowed" disabled={!canManage} checked={form.passwordSignIn} onCheckedChange={(v) => setForm((f) => ({ ...f, passwordSignIn: v }))} /> Password sign-in allowed</label>
          </div>
          <div className="md:col-span-2">
            <FormError error={save.error} />
            {save.isSuccess ? <p role="status" className="text-sm text-emerald-700">Saved.</p> : null}
            {canManage ? <Button type="submit" disabled={save.isPending}>Save single sign-on</Button> : <p className="text-sm text-zinc-500">Only admins and owners change these.</p>}
          </div>
        </form>
      )}
      {canManage && config.data ? <SsoHistory /> : null}
    </Card>
  );
}

/** Every saved state, with who saved it; Restore puts one back as a new save. */
function SsoHistory() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const versions = useQuery(trpc.sso.versions.queryOptions());
  const restore = useMutation(
    trpc.sso.restore.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.sso.get.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.sso.versions.queryKey() });
      },
    }),
  );
  if (!versions.data || versions.data.length === 0) return null;
  return (
    <section aria-labelledby="sso-history-title" className="border-t border-zinc-100 px-4 py-3">
      <h3 id="sso-history-title" className="text-xs font-medium text-zinc-500">History</h3>
      <ul className="divide-y divide-zinc-100 text-sm">
        {versions.data.map((v, i) => (
          <li key={v.version} className="flex flex-wrap items-center justify-between gap-2 py-1.5">
            <span>
              #{v.version} · {v.issuer} · {v.enabled ? "enabled" : "disabled"} · password sign-in {v.passwordSignIn ? "allowed" : "off"}
              {v.jitDomains.length > 0 ? ` · ${v.jitDomains.join(", ")} join as ${v.jitRole}` : ""}
              {v.secretChanged ? " · new secret" : ""}
              <span className="text-xs text-zinc-500"> — {v.savedBy ?? "a removed user"}, {formatRelative(v.savedAt)}</span>
            </span>
            {i > 0 ? (
              <Button size="sm" variant="secondary" aria-label={`Restore single sign-on version ${v.version}`} disabled={restore.isPending} onClick={() => restore.mutate({ version: v.version })}>Restore</Button>
            ) : <span className="text-xs text-zinc-500">current</span>}
          </li>
        ))}
      </ul>
      <FormError error={restore.error} />
    </section>
  );
}
