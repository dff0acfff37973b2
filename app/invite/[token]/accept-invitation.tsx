"use client";
// An invitation link: who invited this address to which organization, then the invitee chooses their password.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Field, Input } from "@/components/ui/field.tsx";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";

export function AcceptInvitation({ token }: { token: string }) {
  const trpc = useTRPC();
  const invitation = useQuery(trpc.invitation.get.queryOptions({ token }, { retry: false }));
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const accept = useMutation(trpc.invitation.accept.mutationOptions());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    accept.mutate({ token, name: name || undefined, password });
  };
  if (invitation.isPending) return <LoadingState label="Checking the invitation" />;
  if (invitation.isError) return <ErrorState error={invitation.error} />;
  if (accept.isSuccess) {
    return (
      <p role="status" className="text-sm">
        Welcome to {invitation.data.organizationName}. <a className="text-accent-700 underline" href="/sign-in">Sign in</a> as {accept.data.email}.
      </p>
    );
  }
  return (
    <form onSubmit={submit} className="space-y-4">
      <p className="text-sm text-zinc-600">
        You are invited to <strong>{invitation.data.organizationName}</strong> as <strong>{invitation.data.role}</strong>, signing in as {invitation.data.email}.
      </p>
      <Field label="Your name (optional)">{(id) => <Input id={id} value={name} onChange={(e) => setName(e.target.value)} />}</Field>
      <Field label="Choose a password" hint="At least 8 characters.">
        {(id) => <Input id={id} type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}
      </Field>
      <FormError error={accept.error} />
      <Button type="submit" className="w-full" disabled={accept.isPending}>Join</Button>
    </form>
  );
}
