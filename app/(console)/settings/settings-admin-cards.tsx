"use client";
// The settings only admins and owners change; others see them read-only.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react.tsx";
import { SsoCard } from "./sso-card.tsx";

export function SettingsAdminCards() {
  const trpc = useTRPC();
  const people = useQuery(trpc.people.list.queryOptions());
  return <SsoCard canManage={people.data?.me.canManage ?? false} />;
}
