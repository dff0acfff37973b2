import type { ReactNode } from "react";
import { cn } from "./cn.ts";

const tones = {
  neutral: "bg-zinc-100 text-zinc-700 ring-zinc-200",
  accent: "bg-accent-50 text-accent-700 dark:text-accent-300 ring-accent-100",
  pass: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  fail: "bg-red-50 text-red-800 ring-red-200",
  warn: "bg-amber-50 text-amber-800 ring-amber-200",
} as const;

export type BadgeTone = keyof typeof tones;

export function Badge({ tone = "neutral", children, title, className }: { tone?: BadgeTone; children: ReactNode; title?: string; className?: string }) {
  return (
    <span title={title} className={cn("inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset", tones[tone], className)}>
      {children}
    </span>
  );
}
