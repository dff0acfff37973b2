"use client";
// Adding an alert rule, or changing one (a new version; the earlier ones stay restorable). The webhook secret is
// shown once, when the rule is made or its secret rotated.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { Field, Input, Select } from "@/components/ui/field.tsx";
import { FormError } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { KINDS, type TAlertKind, type TAlertRule } from "./alert-kinds.ts";

export function AlertForm({ rule, onClose }: { rule: TAlertRule | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<TAlertKind>(rule?.kind ?? "error_rate");
  const [secret, setSecret] = useState<string | null>(null);
  // A mean-score rule watches one grader that records a score (docs/alerts.md, "Kinds").
  const graders = useQuery({ ...trpc.graders.list.queryOptions({}), enabled: kind === "mean_score" });
  const scored = (graders.data ?? []).filter((g) => (g.config as { output?: { type?: string } }).output?.type === "score");
  const done = async (saved: { secret: string | null }) => {
    await queryClient.invalidateQueries({ queryKey: trpc.alerts.pathKey() });
    if (saved.secret) setSecret(saved.secret);
    else onClose();
  };
  const create = useMutation(trpc.alerts.create.mutationOptions({ onSuccess: done }));
  const update = useMutation(trpc.alerts.update.mutationOptions({ onSuccess: done }));
  const remove = useMutation(trpc.alerts.delete.mutationOptions({
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: trpc.alerts.pathKey() });
      onClose();
    },
  }));
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const fields = {
      name: String(f.get("name") ?? ""),
      kind,
      traceFunctionKey: String(f.get("traceFunctionKey") ?? "").trim() || null,
      graderId: kind === "mean_score" ? String(f.get("graderId") ?? "") || null : null,
      threshold: kind === "silence" ? 0 : Number(f.get("threshold")),
      windowMinutes: Number(f.get("windowMinutes")),
      webhookUrl: String(f.get("webhookUrl") ?? ""),
      enabled: f.get("enabled") === "on",
    };
    if (rule) update.mutate({ id: rule.id, changes: { ...fields, rotateSecret: f.get("rotateSecret") === "on" } });
    else create.mutate(fields);
  };
  const title = rule ? `Change ${rule.name}` : "Add an alert rule";
  if (secret) {
    return (
      <Dialog open onOpenChange={(o) => { if (!o) onClose(); }} title="The rule's webhook secret" description="Copy it now: it is not shown again. Each webhook carries X-Reprise-Signature, sha256= and the HMAC-SHA256 of the body with this secret.">
        <div className="space-y-3 pb-5">
          <div className="flex items-center gap-2">
            <code aria-label="Webhook secret" className="block flex-1 truncate rounded bg-zinc-100 px-2 py-1.5 font-mono text-xs">{secret}</code>
            <CopyButton value={secret} />
          </div>
          <div className="flex justify-end"><Button onClick={onClose}>Done</Button></div>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog open onOpenChange={(o) => { if (!o) onClose(); }} title={title} description="A change keeps the previous version, which you can restore from the rule's details.">
      <form onSubmit={submit} className="space-y-3 pb-5">
        <Field label="Name">{(id) => <Input id={id} name="name" required maxLength={200} defaultValue={rule?.name ?? ""} />}</Field>
        <Field label="Condition">
          {(id) => (
            <Select id={id} name="kind" value={kind} onChange={(e) => setKind(e.target.value as TAlertKind)}>
              {Object.entries(KINDS).map(([k, v]) => <option key={k} value={k}>{v.label}</option>)}
            </Select>
          )}
        </Field>
        {kind === "mean_score" ? (
          <Field label="Grader" hint="A grader that records a score">
            {(id) => (
              <Select id={id} name="graderId" required defaultValue={rule?.graderId ?? ""}>
                <option value="">Choose a grader</option>
                {scored.map((g) => <option key={g.id} value={g.id}>{g.name} ({g.traceFunctionKey})</option>)}
              </Select>
            )}
          </Field>
        ) : null}
        <div className="grid grid-cols-2 gap-3">
          {kind === "silence" ? null : (
            <Field label={KINDS[kind].threshold}>
              {(id) => <Input id={id} name="threshold" type="number" min={kind === "mean_score" ? undefined : "0"} max={kind.endsWith("_rate") ? 1 : undefined} step="any" required defaultValue={rule?.threshold ?? ""} />}
            </Field>
          )}
          <Field label="Window (minutes)">{(id) => <Input id={id} name="windowMinutes" type="number" min="1" max="43200" required defaultValue={rule?.windowMinutes ?? 60} />}</Field>
        </div>
        <Field label="Trace function" hint="Empty: every trace function">
          {(id) => <Input id={id} name="traceFunctionKey" defaultValue={rule?.traceFunctionKey ?? ""} />}
        </Field>
        <Field label="Webhook URL">{(id) => <Input id={id} name="webhookUrl" type="url" required defaultValue={rule?.webhookUrl ?? ""} />}</Field>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="enabled" defaultChecked={rule?.enabled ?? true} /> Enabled
        </label>
        {rule ? (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="rotateSecret" /> Make a new webhook secret
          </label>
        ) : null}
        <FormError error={create.error ?? update.error ?? remove.error} />
        <div className="flex justify-between gap-2">
          {rule ? <Button variant="danger" size="sm" disabled={remove.isPending} onClick={() => remove.mutate({ id: rule.id })}>Delete rule</Button> : <span />}
          <div className="flex gap-2">
            <Button variant="ghost" onClick={onClose}>Cancel</Button>
            <Button type="submit" disabled={create.isPending || update.isPending}>Save rule</Button>
          </div>
        </div>
      </form>
    </Dialog>
  );
}
