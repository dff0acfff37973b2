"use client";
// The grader form: target and check for rule graders, model and instructions for LLM judges; what either records.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { Field, Input, Select, Textarea } from "@/components/ui/field.tsx";
import { FormError } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import { CheckFields, checkFromConfig, toCheck, type CheckState } from "@/components/check-fields.tsx";
import { TargetPicker, targetFromConfig, toTarget, type TargetState } from "@/components/target-picker.tsx";
import type { Grader } from "./graders-list.tsx";
import { OnlineFields, onlineFromConfig, toOnline, type OnlineState } from "./online-fields.tsx";
import { OutputFields, outputFromConfig, toOutput, type OutputState } from "./output-fields.tsx";

export function GraderDialog({ grader, onClose, onOpenExisting }: {
  grader: Grader | null;
  onClose: () => void;
  /** Switches the dialog to editing this grader (offered when "New" names an existing one). */
  onOpenExisting?: (existing: Grader) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const config = (grader?.config ?? {}) as Record<string, any>;
  const [form, setForm] = useState({
    name: grader?.name ?? "",
    traceFunctionKey: grader?.traceFunctionKey ?? "",
    kind: grader?.kind ?? ("rule" as "rule" | "llm_judge"),
    model: (config.model as string) ?? "gpt-4o-mini",
    instructions: (config.instructions as string) ?? "",
    live: grader?.live ?? true,
  });
  const [target, setTarget] = useState<TargetState>(targetFromConfig(config.target));
  const [check, setCheck] = useState<CheckState>(checkFromConfig(config.check));
  const [online, setOnline] = useState<OnlineState>(onlineFromConfig(config.online));
  const [output, setOutput] = useState<OutputState>(outputFromConfig(config.output));
  const done = async () => {
    await Promise.all([queryClient.invalidateQueries({ queryKey: trpc.graders.list.queryKey() }), queryClient.invalidateQueries({ queryKey: trpc.graders.versions.queryKey() })]);
    onClose();
  };
  // "New" never overwrites: an existing name is refused, with the offer to edit that grader instead.
  const create = useMutation(trpc.graders.create.mutationOptions({ onSuccess: done }));
  const save = useMutation(trpc.graders.save.mutationOptions({ onSuccess: done }));
  const mutation = grader ? save : create;
  const conflict = !grader && create.error?.data?.code === "CONFLICT";
  const graders = useQuery({ ...trpc.graders.list.queryOptions({ traceFunctionKey: form.traceFunctionKey.trim() }), enabled: conflict });
  // The conflict names the grader it met (`fields.existingId`), whatever spelling the name was typed in.
  const existingId = create.error?.data?.fields?.existingId;
  const existing = graders.data?.find((g) => (existingId ? g.id === existingId : g.name === form.name.trim()));
  // An LLM judge with nowhere to send its prompt fails on every trace: say so before it is saved.
  const judge = useQuery({ ...trpc.graders.judgeStatus.queryOptions(), enabled: form.kind === "llm_judge" });
  const judgeMissing = form.kind === "llm_judge" && judge.data?.configured === false;
  const [confirmedNoJudge, setConfirmedNoJudge] = useState(false);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => { create.reset(); setForm((f) => ({ ...f, [k]: e.target.value })); };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (judgeMissing && !confirmedNoJudge) { setConfirmedNoJudge(true); return; }
    const sampling = toOnline(online);
    const recorded = toOutput(output);
    const cfg = {
      ...(form.kind === "rule"
        ? { target: toTarget(target), check: toCheck(check) }
        : { model: form.model, instructions: form.instructions, target: toTarget(target) }),
      ...(recorded ? { output: recorded } : {}),
      ...(sampling ? { online: sampling } : {}),
    };
    const body = { name: form.name, traceFunctionKey: form.traceFunctionKey, kind: form.kind, config: cfg, live: form.live };
    if (grader) save.mutate({ id: grader.id, ...body });
    else create.mutate(body);
  };
  return (
    <Dialog open onOpenChange={(o) => { if (!o) onClose(); }} title={grader ? `Edit ${grader.name}` : "New grader"}>
      <form onSubmit={submit} className="space-y-4">
        <Field label="Name">{(id) => <Input id={id} required value={form.name} onChange={set("name")} />}</Field>
        <Field label="Trace function">{(id) => <Input id={id} required value={form.traceFunctionKey} onChange={set("traceFunctionKey")} placeholder="answer-question" />}</Field>
        <Field label="Kind">{(id) => (
          <Select id={id} value={form.kind} onChange={set("kind")}><option value="rule">Rule</option><option value="llm_judge">LLM judge</option></Select>
        )}</Field>
        <TargetPicker value={target} onChange={setTarget} />
        {form.kind === "rule" ? (
          <CheckFields value={check} onChange={setCheck} />
        ) : (
          <>
            <Field label="Model">{(id) => <Input id={id} required value={form.model} onChange={set("model")} />}</Field>
            <Field label="Instructions" hint="What makes a trace pass or fail.">{(id) => <Textarea id={id} required value={form.instructions} onChange={set("instructions")} />}</Field>
          </>
        )}
        <OutputFields value={output} onChange={setOutput} kind={form.kind} />
        <OnlineFields value={online} onChange={setOnline} />
        <label className="flex items-center gap-2 text-sm text-zinc-700">
          <input type="checkbox" checked={form.live} onChange={(e) => setForm((f) => ({ ...f, live: e.target.checked }))} /> Grade every new trace of this function (live)
        </label>
        {judgeMissing ? (
          <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
            No judge model is configured on this server: OPENAI_API_KEY is not set and OPENAI_BASE_URL is the default
            ({judge.data?.baseUrl}), so this grader will record an error for every trace until an operator sets one of them.
            {confirmedNoJudge ? " Press the button again to save it anyway." : null}
          </p>
        ) : null}
        {conflict ? (
          <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
            {create.error?.message} Choose another name
            {existing && onOpenExisting ? <>, or <button type="button" className="font-medium underline" onClick={() => onOpenExisting(existing)}>edit the existing grader</button></> : null}.
          </p>
        ) : <FormError error={mutation.error} />}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>Cancel</Button>
          <Button type="submit" disabled={mutation.isPending}>{judgeMissing && confirmedNoJudge ? "Save anyway" : grader ? "Save" : "Create grader"}</Button>
        </div>
      </form>
    </Dialog>
  );
}
