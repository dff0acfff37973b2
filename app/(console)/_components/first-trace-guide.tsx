"use client";
// What to do when there is nothing yet: how to send a first trace (the SDK, or OpenTelemetry through the
// native door: an app's OTLP exporter or a Collector), with this server's address as the browser reached it.
import { Link } from "@/components/ui/link.tsx";
import { useEffect, useState } from "react";

export function FirstTraceGuide() {
  const [origin, setOrigin] = useState("http://localhost:3000");
  useEffect(() => setOrigin(window.location.origin), []);
  return (
    <div className="mx-auto max-w-2xl space-y-5 px-6 py-10 text-sm text-zinc-700">
      <div className="text-center">
        <h2 className="text-base font-semibold text-zinc-900">No traces yet</h2>
        <p className="mt-1 text-zinc-600">Send your first trace, then it shows up here within seconds.</p>
      </div>
      <ol className="list-decimal space-y-4 pl-5">
        <li>
          Create an API key under <Link className="font-medium text-accent-700 dark:text-accent-300 underline" href="/settings">Settings</Link>.
        </li>
        <li>
          Point the SDK at this server and wrap a function:
          <pre className="mt-2 overflow-x-auto rounded-md bg-zinc-900 p-3 text-xs leading-relaxed text-zinc-100">
{`export REPRISE_URL=${origin}
export REPRISE_API_KEY=rp_…

import { Reprise } from "@reprise/sdk";
const reprise = new Reprise();
const answer = reprise.withTrace("answer-question", async (q) => llm(q));`}
          </pre>
        </li>
        <li>
          Or send OpenTelemetry (GenAI, OpenInference, OpenLLMetry, AI SDK) from your app or an OpenTelemetry Collector, no SDK needed:{" "}
          endpoint <code className="rounded bg-zinc-100 px-1">{origin}</code> (the exporter adds{" "}
          <code className="rounded bg-zinc-100 px-1">/v1/traces</code>), header{" "}
          <code className="rounded bg-zinc-100 px-1">Authorization: Bearer rp_…</code>.
          <pre aria-label="OpenTelemetry exporter settings" className="mt-2 overflow-x-auto rounded-md bg-zinc-900 p-3 text-xs leading-relaxed text-zinc-100">
{`export OTEL_EXPORTER_OTLP_ENDPOINT=${origin}
export OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer rp_…"`}
          </pre>
        </li>
      </ol>
    </div>
  );
}
