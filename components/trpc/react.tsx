"use client";
// The console's tRPC + TanStack Query client. Pages call `useTRPC()` and pass its queryOptions /
// mutationOptions to useQuery / useMutation. An UNAUTHORIZED answer (session expired or revoked)
// sends the person back to the sign-in page.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, useSyncExternalStore, type ReactNode } from "react";
import superjson from "superjson";
import type { AppRouter } from "@/server/trpc/root.ts";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

function isUnauthorized(error: unknown): boolean {
  return error instanceof TRPCClientError && error.data?.code === "UNAUTHORIZED";
}

/** The server's 503: the database is unreachable for now; queries retry after its Retry-After. */
export function isDatabaseUnreachable(error: unknown): boolean {
  return error instanceof TRPCClientError && error.data?.code === "SERVICE_UNAVAILABLE";
}

function retryAfterMs(error: unknown): number {
  const seconds = error instanceof TRPCClientError ? Number(error.data?.retryAfter) : NaN;
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 5_000;
}

function toSignIn(error: unknown) {
  if (!isUnauthorized(error) || typeof window === "undefined") return;
  if (window.location.pathname.startsWith("/sign-in")) return;
  const next = encodeURIComponent(window.location.pathname + window.location.search);
  window.location.assign(`/sign-in?next=${next}`);
}

function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: toSignIn }),
    mutationCache: new MutationCache({ onError: toSignIn }),
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        // A database outage is waited out (the banner says so); other failures retry twice.
        retry: (count, error) => {
          if (isDatabaseUnreachable(error)) return true;
          const code = error instanceof TRPCClientError ? error.data?.code : undefined;
          if (["UNAUTHORIZED", "NOT_FOUND", "BAD_REQUEST", "FORBIDDEN"].includes(code)) return false;
          return count < 2;
        },
        retryDelay: (count, error) => (isDatabaseUnreachable(error) ? retryAfterMs(error) : Math.min(1000 * 2 ** count, 30_000)),
      },
    },
  });
}

export function TrpcReactProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: "/api/trpc", transformer: superjson })] }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <DatabaseUnreachableBanner queryClient={queryClient} />
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}

/** "Database unreachable, retrying" while any query waits out a 503. */
function DatabaseUnreachableBanner({ queryClient }: { queryClient: QueryClient }) {
  const cache = queryClient.getQueryCache();
  const unreachable = useSyncExternalStore(
    (onChange) => cache.subscribe(onChange),
    () => cache.getAll().some((q) => isDatabaseUnreachable(q.state.fetchFailureReason ?? q.state.error)),
    () => false,
  );
  if (!unreachable) return null;
  return (
    <div role="status" className="fixed inset-x-0 top-0 z-50 bg-amber-100 px-4 py-2 text-center text-sm text-amber-900">
      Database unreachable, retrying…
    </div>
  );
}

export type { AppRouter };
