"use client";
import { useState } from "react";
import { Button } from "./button.tsx";

/** Copies `value` to the clipboard and says so for two seconds. */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Button variant="secondary" size="sm" onClick={copy} aria-live="polite">
      {copied ? "Copied" : label}
    </Button>
  );
}
