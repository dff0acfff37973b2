"use client";
// Adding a price, overriding a default, or changing one of the organization's prices (a new version).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { Field, Input } from "@/components/ui/field.tsx";
import { FormError } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";

export interface TPriceDraft {
  id?: string;
  modelPattern: string;
  provider: string | null;
  inputPerMtok: number;
  outputPerMtok: number;
  cachedInputPerMtok: number | null;
  reasoningPerMtok: number | null;
  effectiveFrom: string;
}

const num = (v: FormDataEntryValue | null) => (v === null || String(v).trim() === "" ? null : Number(v));

export function PriceForm({ draft, title, onClose }: { draft: TPriceDraft; title: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(true);
  const save = useMutation(trpc.insight.savePrice.mutationOptions({
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: trpc.insight.pathKey() });
      setOpen(false);
      onClose();
    },
  }));
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    save.mutate({
      id: draft.id,
      modelPattern: String(f.get("modelPattern") ?? ""),
      provider: String(f.get("provider") ?? "").trim() || null,
      inputPerMtok: num(f.get("inputPerMtok")) ?? Number.NaN,
      outputPerMtok: num(f.get("outputPerMtok")) ?? Number.NaN,
      cachedInputPerMtok: num(f.get("cachedInputPerMtok")),
      reasoningPerMtok: num(f.get("reasoningPerMtok")),
      effectiveFrom: String(f.get("effectiveFrom") ?? "") || "1970-01-01",
    });
  };
  const close = (next: boolean) => {
    setOpen(next);
    if (!next) onClose();
  };
  return (
    <Dialog open={open} onOpenChange={close} title={title} description="USD per million tokens. A change keeps the previous version, which you can restore.">
      <form onSubmit={submit} className="space-y-3 pb-5">
        <Field label="Model pattern" hint="A model name (its dated versions match too) or a glob with *">
          {(id) => <Input id={id} name="modelPattern" required defaultValue={draft.modelPattern} />}
        </Field>
        <Field label="Provider">{(id) => <Input id={id} name="provider" defaultValue={draft.provider ?? ""} />}</Field>
        <div className="grid grid-cols-2 gap-3">
          <Field label="Input">{(id) => <Input id={id} name="inputPerMtok" type="number" min="0" step="any" required defaultValue={draft.inputPerMtok} />}</Field>
          <Field label="Output">{(id) => <Input id={id} name="outputPerMtok" type="number" min="0" step="any" required defaultValue={draft.outputPerMtok} />}</Field>
          <Field label="Cached input">{(id) => <Input id={id} name="cachedInputPerMtok" type="number" min="0" step="any" defaultValue={draft.cachedInputPerMtok ?? ""} />}</Field>
          <Field label="Reasoning">{(id) => <Input id={id} name="reasoningPerMtok" type="number" min="0" step="any" defaultValue={draft.reasoningPerMtok ?? ""} />}</Field>
        </div>
        <Field label="Effective from">{(id) => <Input id={id} name="effectiveFrom" type="date" defaultValue={draft.effectiveFrom === "1970-01-01" ? "" : draft.effectiveFrom} />}</Field>
        <FormError error={save.error} />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => close(false)}>Cancel</Button>
          <Button type="submit" disabled={save.isPending}>Save price</Button>
        </div>
      </form>
    </Dialog>
  );
}
