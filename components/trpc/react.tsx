"use client";
// The console's tRPC + TanStack Query client. Pages call `useTRPC()` and pass its queryOptions /
// mutationOptions to useQuery / useMutation. An UNAUTHORIZED answer (session expired or revoked)
// sends the person back to the sign-in page.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import superjson from "superjson";
import type { AppRouter } from "@/server/trpc/root.ts";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

function isUnauthorized(error: unknown): boolean {
  return error instanceof TRPCClientError && error.data?.code === "UNAUTHORIZED";
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
        retry: (count, error) => {
          const code = error instanceof TRPCClientError ? error.data?.code : undefined;
          if (["UNAUTHORIZED", "NOT_FOUND", "BAD_REQUEST", "FORBIDDEN"].includes(code)) return false;
          return count < 2;
        },
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
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}

export type { AppRouter };
