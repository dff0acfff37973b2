import type { ReactNode } from "react";
import { cn } from "./cn.ts";

/** Label/value pairs in a responsive card grid (trace and replay headers). */
export function FactGrid({ facts, className }: { facts: Array<[string, ReactNode]>; className?: string }) {
  return (
    <dl className={cn("grid grid-cols-2 gap-x-6 gap-y-3 rounded-lg border border-zinc-200 bg-white p-4 shadow-xs sm:grid-cols-4", className)}>
      {facts.map(([k, v]) => (
        <div key={k} className="min-w-0">
          <dt className="text-xs text-zinc-500">{k}</dt>
          <dd className="text-sm break-words text-zinc-900">{v}</dd>
        </div>
      ))}
    </dl>
  );
}
