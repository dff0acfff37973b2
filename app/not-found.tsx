// Unknown addresses and records that do not exist: a page in the console's look with a way back.
import type { Metadata } from "next";
import { Link } from "@/components/ui/link.tsx";
import { CONSOLE_NAV as PLACES } from "./(console)/_components/nav.ts";

export const metadata: Metadata = { title: "Page not found · Reprise" };

export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-zinc-50 px-4 py-12">
      <div className="w-full max-w-md rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
        <Link href="/traces" className="text-base font-semibold tracking-tight text-zinc-900">
          Reprise
        </Link>
        <h1 className="mt-4 text-lg font-semibold text-zinc-900">Page not found</h1>
        <p className="mt-1 text-sm text-zinc-600">Nothing lives at this address. It may have been mistyped, or the record was deleted.</p>
        <nav aria-label="Console" className="mt-5">
          <ul className="flex flex-wrap gap-2">
            {PLACES.map((place) => (
              <li key={place.href}>
                <Link
                  href={place.href}
                  className="block rounded-md border border-zinc-200 px-3 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100"
                >
                  {place.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </main>
  );
}
