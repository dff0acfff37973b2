"use client";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Field, Input } from "@/components/ui/field.tsx";
import { FormError } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";

/** Password sign-in, and single sign-on through the organization's provider (docs/operations.md, "Single sign-on"). */
export function SignInForm({ next, ssoError }: { next: string; ssoError?: string }) {
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [ssoMissingEmail, setSsoMissingEmail] = useState(false);
  // A navigation, not a fetch: the provider's pages take over the window and come back to our callback.
  const startSso = () => {
    if (!email.trim()) return setSsoMissingEmail(true);
    window.location.assign(`/api/auth/sso/start?email=${encodeURIComponent(email.trim())}`);
  };
  const signIn = useMutation(
    trpc.session.signIn.mutationOptions({
      // A full navigation, so the server layout reads the new cookie.
      onSuccess: () => window.location.assign(next),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ email, password });
  };
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <Field label="Email">
        {(id) => <Input id={id} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />}
      </Field>
      <Field label="Password">
        {(id) => (
          <Input id={id} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        )}
      </Field>
      <FormError error={signIn.error} />
      {ssoError ? <p role="alert" className="text-sm text-red-700">Single sign-on: {ssoError}</p> : null}
      <Button type="submit" className="w-full" disabled={signIn.isPending || signIn.isSuccess}>
        {signIn.isPending || signIn.isSuccess ? "Signing in…" : "Sign in"}
      </Button>
      <Button type="button" variant="secondary" className="w-full" onClick={startSso}>Continue with SSO</Button>
      {ssoMissingEmail && !email.trim() ? <p className="text-sm text-zinc-600">Enter your work e-mail above first.</p> : null}
    </form>
  );
}
