import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { getServerCaller } from "@/server/trpc/rsc.ts";
import { AppShell } from "./_components/app-shell.tsx";

export const dynamic = "force-dynamic";

// Signed-out visitors go to sign-in. This is convenience only: every procedure checks the session itself.
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const me = await (await getServerCaller()).session.me();
  if (!me) redirect("/sign-in");
  return (
    <AppShell user={{ email: me.email, organizationName: me.organizationName }}>{children}</AppShell>
  );
}
