"use client";
// Accessible modal dialog (Radix: focus trap, Escape, aria wiring). It never outgrows the window: past its
// height the content scrolls inside it, and a form's last row (its buttons) stays in view at the bottom.
import { Dialog as D } from "radix-ui";
import type { ReactNode } from "react";

export function Dialog({ open, onOpenChange, title, description, children }: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-zinc-900/30" />
        <D.Content className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white px-5 pt-5 shadow-xl">
          <D.Title className="text-base font-semibold text-zinc-900">{title}</D.Title>
          {description ? (
            <D.Description className="mt-1 text-sm text-zinc-500">{description}</D.Description>
          ) : (
            <D.Description className="sr-only">{title}</D.Description>
          )}
          <div className="mt-4 pb-5 [&_form>:last-child]:sticky [&_form>:last-child]:bottom-0 [&_form>:last-child]:-mx-5 [&_form>:last-child]:border-t [&_form>:last-child]:border-zinc-100 [&_form>:last-child]:bg-white [&_form>:last-child]:px-5 [&_form>:last-child]:py-3">{children}</div>
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}
