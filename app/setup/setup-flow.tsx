"use client";
// The first-run form, then the first API key (shown once) with a quickstart that has this server's address
// and the key filled in. The page waits for the first trace and opens the trace list when it arrives.
import { useMutation, useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { Field, Input } from "@/components/ui/field.tsx";
import { FormError, Spinner } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { TSdkInstall } from "@/server/sdk-dist/sdk-dist.http.ts";

export function SetupFlow({ code, sdk }: { code: string; sdk: TSdkInstall | null }) {
  const trpc = useTRPC();
  const [form, setForm] = useState({ organizationName: "", email: "", password: "" });
  const complete = useMutation(trpc.setup.complete.mutationOptions());
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    complete.mutate({ code, ...form });
  };
  if (complete.data) return <FirstKey apiKey={complete.data.apiKey} sdk={sdk} />;
  return (
    <div className="rounded-lg border border-zinc-200 bg-white p-6 shadow-xs">
      <h1 className="text-base font-semibold text-zinc-900">Create your account</h1>
      <p className="mt-1 mb-5 text-sm text-zinc-600">You are the first person here: this creates the organization and you as its owner.</p>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Organization name">
          {(id) => <Input id={id} required autoComplete="organization" value={form.organizationName} onChange={set("organizationName")} placeholder="Acme" />}
        </Field>
        <Field label="Email">{(id) => <Input id={id} type="email" required autoComplete="username" value={form.email} onChange={set("email")} />}</Field>
        <Field label="Password" hint="At least 8 characters.">
          {(id) => <Input id={id} type="password" required autoComplete="new-password" value={form.password} onChange={set("password")} />}
        </Field>
        <FormError error={complete.error} />
        <Button type="submit" className="w-full" disabled={complete.isPending}>
          {complete.isPending ? "Creating…" : "Create account"}
        </Button>
      </form>
    </div>
  );
}

const hex = (bytes: number) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");

/** One OpenTelemetry span as OTLP/JSON, sent to the native door (docs/otel.md). */
function curlCommand(origin: string, apiKey: string): string {
  const end = BigInt(Date.now()) * 1_000_000n;
  const span = {
    traceId: hex(16),
    spanId: hex(8),
    name: "Hello from curl",
    kind: 1,
    startTimeUnixNano: String(end - 250_000_000n),
    endTimeUnixNano: String(end),
    attributes: [{ key: "input.value", value: { stringValue: "What is Reprise?" } }],
  };
  const body = { resourceSpans: [{ resource: { attributes: [{ key: "service.name", value: { stringValue: "quickstart" } }] }, scopeSpans: [{ scope: { name: "quickstart" }, spans: [span] }] }] };
  return `curl -sS ${origin}/v1/traces \\
  -H "Authorization: Bearer ${apiKey}" \\
  -H "Content-Type: application/json" \\
  -d '${JSON.stringify(body)}'`;
}

function sdkSnippet(origin: string, apiKey: string, sdk: TSdkInstall | null): string {
  return `// ${sdk?.commands.typescript ?? "npm install <this server>/sdk/typescript/… (docs/sdk-downloads.md)"}
import { Reprise } from "@reprise/sdk";

const reprise = new Reprise({ serviceUrl: "${origin}", apiKey: "${apiKey}" });
const answer = reprise.withTrace("answer-question", async (question: string) => \`echo: \${question}\`);
await answer("What is Reprise?");
await reprise.flushTraces();`;
}

/** The commands that install each SDK from this server (docs/sdk-downloads.md). */
function installCommands(sdk: TSdkInstall): string {
  return [
    `# TypeScript\n${sdk.commands.typescript}`,
    `# Python\n${sdk.commands.python}`,
    `# Ruby\n${sdk.commands.ruby}`,
    `# Go\n${sdk.commands.go}`,
  ].join("\n\n");
}

function FirstKey({ apiKey, sdk }: { apiKey: string; sdk: TSdkInstall | null }) {
  const trpc = useTRPC();
  const [origin, setOrigin] = useState<string | null>(null);
  const [curl, setCurl] = useState("");
  useEffect(() => {
    setOrigin(window.location.origin);
    setCurl(curlCommand(window.location.origin, apiKey));
  }, [apiKey]);
  // Poll for the first trace; when it arrives, the trace list takes over.
  const traces = useQuery({ ...trpc.traces.list.queryOptions({ limit: 1 }), refetchInterval: 2000 });
  const arrived = (traces.data?.traces.length ?? 0) > 0;
  useEffect(() => {
    if (arrived) window.location.assign("/traces");
  }, [arrived]);
  return (
    <div className="space-y-5 rounded-lg border border-zinc-200 bg-white p-6 text-sm text-zinc-700 shadow-xs">
      <div>
        <h1 className="text-base font-semibold text-zinc-900">Your first API key</h1>
        <p className="mt-1">Copy it now: it is shown only this once (Reprise stores only a hash). You can create more under Settings.</p>
      </div>
      <div className="flex items-center gap-2">
        <code aria-label="Your API key" className="min-w-0 flex-1 overflow-x-auto rounded-md bg-zinc-100 px-3 py-2 font-mono text-xs whitespace-nowrap">
          {apiKey}
        </code>
        <CopyButton value={apiKey} label="Copy key" />
      </div>
      {origin ? (
        <>
          <Snippet title="Send a first trace with curl (OpenTelemetry, OTLP/JSON)" label="curl command" text={curl} />
          <Snippet title="Or from TypeScript with the SDK" label="SDK example" text={sdkSnippet(origin, apiKey, sdk)} />
          {sdk ? <Snippet title={`Install an SDK from this server (version ${sdk.version})`} label="SDK install commands" text={installCommands(sdk)} /> : null}
        </>
      ) : null}
      <p className="flex flex-wrap items-center gap-2 text-zinc-600">
        <Spinner label="Waiting for your first trace" /> The trace list opens as soon as it arrives.
        <Link className="font-medium text-accent-700 dark:text-accent-300 underline" href="/traces">Skip</Link>
      </p>
    </div>
  );
}

function Snippet({ title, label, text }: { title: string; label: string; text: string }) {
  return (
    <section aria-label={title} className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <h2 className="font-medium text-zinc-900">{title}</h2>
        <CopyButton value={text} label="Copy" />
      </div>
      <pre aria-label={label} className="overflow-x-auto rounded-md bg-zinc-900 p-3 text-xs leading-relaxed text-zinc-100">{text}</pre>
    </section>
  );
}
