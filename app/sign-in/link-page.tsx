// The frame of the pages a link opens (an invitation, a password reset): the sign-in page's look, no console.
import type { ReactNode } from "react";

export function LinkPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <p className="mb-8 text-center text-2xl font-semibold tracking-tight text-zinc-900">Reprise</p>
        <div className="rounded-lg border border-zinc-200 bg-white p-6 shadow-xs">
          <h1 className="mb-5 text-base font-semibold text-zinc-900">{title}</h1>
          {children}
        </div>
      </div>
    </main>
  );
}
