"use client";
// What the signed-in user's role lets them do (session.me's `can`), so pages hide what the role cannot do. The
// server checks every procedure itself; hiding is only so nobody is offered a button that answers 403.
import { createContext, useContext, type ReactNode } from "react";
import type { RouterOutputs } from "@/components/trpc/types.ts";

type TCan = NonNullable<RouterOutputs["session"]["me"]>["can"];
type TPermissionName = keyof TCan;

const PermissionsContext = createContext<TCan | null>(null);

export function PermissionsProvider({ can, children }: { can: TCan; children: ReactNode }) {
  return <PermissionsContext.Provider value={can}>{children}</PermissionsContext.Provider>;
}

/** Whether the signed-in user may do this (true outside a provider, where the server alone decides). */
export function useCan(permission: TPermissionName): boolean {
  const can = useContext(PermissionsContext);
  return can === null ? true : can[permission];
}
