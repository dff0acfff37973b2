"use client";
// A user's role in the users list: a select for who may change it (admins; owners for owners), a badge otherwise.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge.tsx";
import { Select } from "@/components/ui/field.tsx";
import { FormError } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { useCan } from "../_components/permissions.tsx";

export const ROLE_CHOICES = ["viewer", "member", "admin", "owner"] as const;
export type TRoleChoice = (typeof ROLE_CHOICES)[number];

export function RoleSelect({ user }: { user: { id: string; email: string; role: string } }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canManageUsers = useCan("manage-users");
  const canManageOwners = useCan("manage-owners");
  const setRole = useMutation(trpc.users.setRole.mutationOptions({ onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.users.list.queryKey() }) }));
  const editable = canManageUsers && (canManageOwners || user.role !== "owner");
  if (!editable) return <Badge>{user.role}</Badge>;
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <Select
        aria-label={`Role of ${user.email}`}
        className="h-7 text-xs"
        value={user.role}
        disabled={setRole.isPending}
        onChange={(e) => setRole.mutate({ userId: user.id, role: e.target.value as TRoleChoice })}
      >
        {ROLE_CHOICES.filter((r) => canManageOwners || r !== "owner").map((r) => <option key={r} value={r}>{r}</option>)}
      </Select>
      <FormError error={setRole.error} />
    </span>
  );
}
