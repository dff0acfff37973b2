"use client";
// What a console page shows instead of a 500 while the database is unreachable or refusing connections
// (docs/api/console.md): the same words as the banner of the console's queries, and a reload once the
// Retry-After the APIs send has passed.
import { useEffect } from "react";

const RETRY_AFTER_MS = 5_000;

export function DatabaseOutage() {
  useEffect(() => {
    const timer = setTimeout(() => window.location.reload(), RETRY_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div role="status" className="max-w-md rounded-lg border border-amber-200 bg-amber-50 p-6 text-sm text-amber-900">
        <h1 className="mb-2 text-base font-semibold">Database unreachable, retrying…</h1>
        <p>Reprise cannot reach its database right now. This page reloads by itself every few seconds; nothing you saved is lost.</p>
      </div>
    </main>
  );
}
