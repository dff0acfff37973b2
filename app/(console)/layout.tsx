import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { DATABASE_OUTAGE, getServerCaller, readUnlessOutage } from "@/server/trpc/rsc.ts";
import { DatabaseOutage } from "@/components/ui/database-outage.tsx";
import { AppShell } from "./_components/app-shell.tsx";
import { PermissionsProvider } from "./_components/permissions.tsx";

export const dynamic = "force-dynamic";

// Before the first organization exists every page leads to /setup; signed-out visitors go to sign-in. This is convenience only: every procedure checks the session itself.
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const state = await readUnlessOutage(async () => {
    const caller = await getServerCaller();
    return { setupNeeded: (await caller.setup.status()).needed, me: await caller.session.me() };
  });
  if (state === DATABASE_OUTAGE) return <DatabaseOutage />;
  // No organization yet: the first run happens in the browser (docs/operations.md, "First run").
  if (state.setupNeeded) redirect("/setup");
  const { me } = state;
  if (!me) redirect("/sign-in");
  return (
    <PermissionsProvider can={me.can}>
      <AppShell user={{ email: me.email, organizationName: me.organizationName, role: me.role }}>{children}</AppShell>
    </PermissionsProvider>
  );
}
