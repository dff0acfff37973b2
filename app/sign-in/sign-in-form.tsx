"use client";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Field, Input } from "@/components/ui/field.tsx";
import { FormError } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";

export function SignInForm({ next }: { next: string }) {
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
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
      <Button type="submit" className="w-full" disabled={signIn.isPending || signIn.isSuccess}>
        {signIn.isPending || signIn.isSuccess ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
