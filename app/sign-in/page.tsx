import { redirect } from "next/navigation";
import { DATABASE_OUTAGE, getServerCaller, readUnlessOutage } from "@/server/trpc/rsc.ts";
import { DatabaseOutage } from "@/components/ui/database-outage.tsx";
import { SignInForm } from "./sign-in-form.tsx";

export const metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

/** Only same-site paths may be a post-sign-in destination (no open redirect). */
function safeNext(next: string | string[] | undefined): string {
  const value = Array.isArray(next) ? next[0] : next;
  return value && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\") ? value : "/traces";
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const next = safeNext(params.next);
  const ssoError = typeof params.ssoError === "string" ? params.ssoError.slice(0, 500) : undefined;
  const state = await readUnlessOutage(async () => {
    const caller = await getServerCaller();
    return { setupNeeded: (await caller.setup.status()).needed, me: await caller.session.me() };
  });
  if (state === DATABASE_OUTAGE) return <DatabaseOutage />;
  if (state.setupNeeded) redirect("/setup");
  if (state.me) redirect(next);
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 text-center">
          <p className="text-2xl font-semibold tracking-tight text-zinc-900">Reprise</p>
          <p className="mt-1 text-sm text-zinc-500">Record, replay and judge your LLM apps.</p>
        </div>
        <div className="rounded-lg border border-zinc-200 bg-white p-6 shadow-xs">
          <h1 className="mb-5 text-base font-semibold text-zinc-900">Sign in</h1>
          <SignInForm next={next} ssoError={ssoError} />
        </div>
        <p className="mt-6 text-center text-xs text-zinc-500">
          No account? An admin invites you under Settings → People, or an operator creates an organization with{" "}
          <code className="rounded bg-zinc-100 px-1">npm run admin -- create-org</code> (it works while the server runs). A
          headless install creates the first one at start-up from the{" "}
          <code className="rounded bg-zinc-100 px-1">REPRISE_INIT_*</code> settings.
        </p>
      </div>
    </main>
  );
}
