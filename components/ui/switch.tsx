"use client";
import { Switch as S } from "radix-ui";

/** An accessible on/off switch; `label` is its accessible name. */
export function Switch({ checked, onCheckedChange, disabled, label, id }: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  label: string;
  id?: string;
}) {
  return (
    <S.Root
      id={id}
      aria-label={label}
      checked={checked}
      disabled={disabled}
      onCheckedChange={onCheckedChange}
      className="relative inline-flex h-5 w-9 shrink-0 items-center rounded-full bg-zinc-300 transition-colors data-[state=checked]:bg-accent-600 disabled:cursor-not-allowed disabled:opacity-50"
    >
      <S.Thumb className="block size-4 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.125rem]" />
    </S.Root>
  );
}
