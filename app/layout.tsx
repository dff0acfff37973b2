import type { ReactNode } from "react";

export const metadata = { title: "Reprise", description: "Record, replay and judge LLM and agent applications." };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
