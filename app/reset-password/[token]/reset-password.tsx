"use client";
// A one-time password reset link an admin made: the person chooses a new password; every session of theirs ends.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Field, Input } from "@/components/ui/field.tsx";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";

export function ResetPassword({ token }: { token: string }) {
  const trpc = useTRPC();
  const reset = useQuery(trpc.passwordReset.get.queryOptions({ token }, { retry: false }));
  const [password, setPassword] = useState("");
  const use = useMutation(trpc.passwordReset.use.mutationOptions());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    use.mutate({ token, password });
  };
  if (reset.isPending) return <LoadingState label="Checking the link" />;
  if (reset.isError) return <ErrorState error={reset.error} />;
  if (use.isSuccess) {
    return <p role="status" className="text-sm">Password changed. <a className="text-accent-700 underline" href="/sign-in">Sign in</a> as {use.data.email}.</p>;
  }
  return (
    <form onSubmit={submit} className="space-y-4">
      <p className="text-sm text-zinc-600">A new password for {reset.data.email}.</p>
      <Field label="New password" hint="At least 8 characters.">
        {(id) => <Input id={id} type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}
      </Field>
      <FormError error={use.error} />
      <Button type="submit" className="w-full" disabled={use.isPending}>Set password</Button>
    </form>
  );
}
