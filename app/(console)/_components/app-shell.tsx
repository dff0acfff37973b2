"use client";
// The console frame: a sidebar on wide screens, a scrollable top bar on narrow ones.
import { useMutation } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button.tsx";
import { cn } from "@/components/ui/cn.ts";
import { useTRPC } from "@/components/trpc/react.tsx";
import { CONSOLE_NAV as NAV } from "./nav.ts";

export function AppShell({ user, children }: { user: { email: string; organizationName: string; role: string }; children: ReactNode }) {
  const pathname = usePathname();
  const trpc = useTRPC();
  const signOut = useMutation(trpc.session.signOut.mutationOptions({ onSettled: () => window.location.assign("/sign-in") }));
  return (
    <div className="flex min-h-screen flex-col md:flex-row">
      <aside className="border-b border-zinc-200 bg-white md:sticky md:top-0 md:flex md:h-screen md:w-56 md:shrink-0 md:flex-col md:border-r md:border-b-0">
        <div className="flex items-center justify-between px-4 py-3 md:block md:py-5">
          <Link href="/traces" className="text-base font-semibold tracking-tight text-zinc-900">
            Reprise
          </Link>
          <p className="hidden truncate text-xs text-zinc-500 md:mt-0.5 md:block" title={user.organizationName}>
            {user.organizationName}
          </p>
        </div>
        <nav aria-label="Main" className="overflow-x-auto px-2 pb-2 md:flex-1 md:overflow-visible md:pb-0">
          <ul className="flex gap-1 md:flex-col">
            {NAV.map((item) => {
              const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
              return (
                <li key={item.href}>
                  <Link
                    href={item.href}
                    aria-current={active ? "page" : undefined}
                    className={cn(
                      "block rounded-md px-3 py-1.5 whitespace-nowrap",
                      active ? "bg-accent-50 font-medium text-accent-700 dark:text-accent-300" : "text-zinc-700 hover:bg-zinc-100",
                    )}
                  >
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="hidden border-t border-zinc-100 px-4 py-3 md:block">
          <p className="truncate text-xs text-zinc-600" title={user.email}>
            {user.email}
          </p>
          <p className="text-xs text-zinc-500" data-testid="my-role">Role: {user.role}</p>
          <Button variant="ghost" size="sm" className="mt-1 -ml-2.5" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </Button>
        </div>
        <div className="px-4 pb-3 md:hidden">
          <Button variant="ghost" size="sm" className="-ml-2.5" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out ({user.email})
          </Button>
        </div>
      </aside>
      <main className="min-w-0 flex-1 px-4 py-6 md:px-8 md:py-8">
        <div className="mx-auto max-w-6xl">{children}</div>
      </main>
    </div>
  );
}
