import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "./cn.ts";

export const Card = ({ className, ...props }: HTMLAttributes<HTMLElement>) => (
  <section className={cn("rounded-lg border border-zinc-200 bg-white shadow-xs", className)} {...props} />
);

export function CardHeader({ title, description, actions }: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3 border-b border-zinc-100 px-4 py-3">
      <div>
        <h2 className="text-sm font-semibold text-zinc-900">{title}</h2>
        {description ? <p className="mt-0.5 text-xs text-zinc-500">{description}</p> : null}
      </div>
      {actions ? <div className="flex items-center gap-2">{actions}</div> : null}
    </div>
  );
}
