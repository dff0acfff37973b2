import type { ButtonHTMLAttributes } from "react";
import { cn } from "./cn.ts";

const variants = {
  primary: "bg-accent-600 text-on-accent hover:bg-accent-700 disabled:bg-accent-600/50",
  secondary: "border border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50 disabled:text-zinc-400",
  ghost: "text-zinc-700 hover:bg-zinc-100 disabled:text-zinc-400",
  danger: "border border-red-200 bg-white text-red-700 dark:text-red-300 hover:bg-red-50 disabled:text-red-300",
  pass: "bg-emerald-700 text-on-accent hover:bg-emerald-900 disabled:bg-emerald-700/50",
  fail: "bg-red-600 text-on-accent hover:bg-red-700 disabled:bg-red-600/50",
} as const;

const sizes = { sm: "h-7 px-2.5 text-xs", md: "h-9 px-3.5 text-sm" } as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
}

export function Button({ variant = "primary", size = "md", className, type = "button", ...props }: ButtonProps) {
  return (
    <button
      type={type}
      className={cn(
        "inline-flex items-center justify-center gap-1.5 rounded-md font-medium whitespace-nowrap transition-colors disabled:cursor-not-allowed",
        variants[variant],
        sizes[size],
        className,
      )}
      {...props}
    />
  );
}
