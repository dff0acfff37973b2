import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { getServerCaller } from "@/server/trpc/rsc.ts";
import { AppShell } from "./_components/app-shell.tsx";

export const dynamic = "force-dynamic";

// Before the first organization exists every page leads to /setup; signed-out visitors go to sign-in. This is convenience only: every procedure checks the session itself.
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const caller = await getServerCaller();
  // No organization yet: the first run happens in the browser (docs/operations.md, "First run").
  if ((await caller.setup.status()).needed) redirect("/setup");
  const me = await caller.session.me();
  if (!me) redirect("/sign-in");
  return (
    <AppShell user={{ email: me.email, organizationName: me.organizationName }}>{children}</AppShell>
  );
}
