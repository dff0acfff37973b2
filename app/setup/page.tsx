import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { sdkInstallFor } from "@/server/sdk-dist/sdk-dist.http.ts";
import { DATABASE_OUTAGE, getServerCaller, isBadInput, readUnlessOutage } from "@/server/trpc/rsc.ts";
import { DatabaseOutage } from "@/components/ui/database-outage.tsx";
import { SetupFlow } from "./setup-flow.tsx";

export const metadata = { title: "Set up Reprise" };
export const dynamic = "force-dynamic";

// The first run in the browser (docs/operations.md, "First run"): only with the one-time code the server
// printed at start-up, and only while no organization exists.
export default async function SetupPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).code;
  const code = (Array.isArray(raw) ? raw[0] : raw) ?? "";
  const status = await readUnlessOutage(async () => {
    const caller = await getServerCaller();
    // A code the input rules refuse (a NUL, a lone surrogate) is simply not the code.
    return caller.setup.status({ code: code.slice(0, 200) }).catch(async (error: unknown) => {
      if (!isBadInput(error)) throw error;
      return { needed: (await caller.setup.status()).needed, codeValid: false };
    });
  });
  if (status === DATABASE_OUTAGE) return <DatabaseOutage />;
  if (!status.needed) {
    if (code) redirect("/sign-in");
    notFound();
  }
  return (
    <main className="flex min-h-screen items-start justify-center px-4 py-12 sm:items-center">
      <div className="w-full max-w-xl">
        <div className="mb-8 text-center">
          <p className="text-2xl font-semibold tracking-tight text-zinc-900">Reprise</p>
          <p className="mt-1 text-sm text-zinc-500">Record, replay and judge your LLM apps.</p>
        </div>
        {status.codeValid ? <SetupFlow code={code} sdk={sdkInstallFor(await headers())} /> : <MissingCode given={code !== ""} />}
      </div>
    </main>
  );
}

function MissingCode({ given }: { given: boolean }) {
  return (
    <div className="rounded-lg border border-zinc-200 bg-white p-6 text-sm text-zinc-700 shadow-xs">
      <h1 className="mb-3 text-base font-semibold text-zinc-900">{given ? "This setup code is not valid" : "A setup code is needed"}</h1>
      <p>
        Reprise has no account yet. To create the first one, open the address the server printed when it started
        (<code className="rounded bg-zinc-100 px-1">npm start</code>): it ends in{" "}
        <code className="rounded bg-zinc-100 px-1">/setup?code=…</code>. The code works once; restarting the server prints a new one.
      </p>
      <p className="mt-3">
        Without a browser: start the server with <code className="rounded bg-zinc-100 px-1">REPRISE_INIT_ORG_NAME</code>,{" "}
        <code className="rounded bg-zinc-100 px-1">REPRISE_INIT_USER_EMAIL</code> and{" "}
        <code className="rounded bg-zinc-100 px-1">REPRISE_INIT_USER_PASSWORD</code> set, or run{" "}
        <code className="rounded bg-zinc-100 px-1">npm run admin -- create-org</code>.
      </p>
    </div>
  );
}
