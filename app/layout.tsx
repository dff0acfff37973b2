import type { ReactNode } from "react";
import { TrpcReactProvider } from "@/components/trpc/react.tsx";
import "./globals.css";

// Every page renders per request, so Next.js can put the request's CSP nonce on its scripts (middleware.ts).
export const dynamic = "force-dynamic";

export const metadata = { title: { default: "Reprise", template: "%s · Reprise" }, description: "Record, replay and judge LLM and agent applications." };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <TrpcReactProvider>{children}</TrpcReactProvider>
      </body>
    </html>
  );
}
