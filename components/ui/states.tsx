// Loading, empty and error states shared by every console page.
import type { ReactNode } from "react";
import { Button } from "./button.tsx";
import { humanErrorMessage, isNotFound } from "./human-error.ts";

export function Spinner({ label = "Loading" }: { label?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2 text-sm text-zinc-500">
      <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-zinc-300 border-t-accent-600" />
      {label}…
    </span>
  );
}

export function LoadingState({ label }: { label?: string }) {
  return (
    <div className="flex justify-center py-12">
      <Spinner label={label} />
    </div>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="mx-auto max-w-xl px-6 py-12 text-center">
      <h3 className="text-base font-semibold text-zinc-900">{title}</h3>
      {children ? <div className="mt-2 space-y-3 text-sm text-zinc-600">{children}</div> : null}
      {action ? <div className="mt-5 flex justify-center">{action}</div> : null}
    </div>
  );
}

export function ErrorState({ error, onRetry }: { error: { message: string; data?: unknown } | null | undefined; onRetry?: () => void }) {
  if (isNotFound(error)) {
    return (
      <div role="alert" className="mx-auto max-w-xl rounded-lg border border-zinc-200 bg-white px-4 py-3 text-sm text-zinc-700">
        <p className="font-medium text-zinc-900">Not found.</p>
        <p className="mt-1">{humanErrorMessage(error)} It may have been deleted, or the link is wrong.</p>
      </div>
    );
  }
  return (
    <div role="alert" className="mx-auto max-w-xl rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p className="font-medium">Something went wrong.</p>
      <p className="mt-1">{humanErrorMessage(error)}</p>
      {onRetry ? (
        <Button variant="secondary" size="sm" className="mt-3" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}

/** Inline form error (mutation failures). */
export function FormError({ error }: { error: { message: string; data?: unknown } | null | undefined }) {
  if (!error) return null;
  return (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
      {humanErrorMessage(error)}
    </p>
  );
}
