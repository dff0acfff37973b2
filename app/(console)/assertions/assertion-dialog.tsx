"use client";
// Add or edit one assertion of a trace: the statement, its target (whole trace, final
// output, or a span name with an occurrence chosen among the trace's spans), an optional deterministic
// check, pass/fail criteria and a note. Saved as a human-authored assertion (assertions.save).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { Field, Textarea } from "@/components/ui/field.tsx";
import { FormError } from "@/components/ui/states.tsx";
import { CheckFields, checkFromConfig, toCheck, type CheckState } from "@/components/check-fields.tsx";
import { TargetPicker, targetFromConfig, toTarget, type TargetState } from "@/components/target-picker.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterInputs, RouterOutputs } from "@/components/trpc/types.ts";

export type Assertion = RouterOutputs["assertions"]["forTrace"]["assertions"][number];

export function useInvalidateAssertions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => Promise.all([
    queryClient.invalidateQueries({ queryKey: trpc.assertions.pathKey() }),
    queryClient.invalidateQueries({ queryKey: trpc.traces.get.queryKey() }),
  ]);
}

export function AssertionDialog({ traceId, assertion, onClose }: { traceId: string; assertion: Assertion | null; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateAssertions();
  const spans = useQuery(trpc.assertions.forTrace.queryOptions({ traceId }));
  const [form, setForm] = useState({
    assertion: assertion?.assertion ?? "",
    passCriteria: assertion?.passCriteria ?? "",
    failCriteria: assertion?.failCriteria ?? "",
    humanNote: assertion?.humanNote ?? "",
  });
  const [target, setTarget] = useState<TargetState>(targetFromConfig(assertion?.targetOnEvaluatedTrace));
  const [check, setCheck] = useState<CheckState>(checkFromConfig(assertion?.check, ""));
  const save = useMutation(trpc.assertions.save.mutationOptions({ onSuccess: async () => { await invalidate(); onClose(); } }));
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const orNull = (s: string) => (s.trim() ? s.trim() : null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      traceId,
      assertion: {
        ...(assertion ? { id: assertion.id } : {}),
        assertion: form.assertion.trim(),
        passCriteria: orNull(form.passCriteria),
        failCriteria: orNull(form.failCriteria),
        humanNote: orNull(form.humanNote),
        targetOnEvaluatedTrace: toTarget(target),
        // The server parses the check (ZCheck); the form only offers its operations.
        check: check.op ? (toCheck(check) as RouterInputs["assertions"]["save"]["assertion"]["check"]) : null,
      },
    });
  };
  return (
    <Dialog open onOpenChange={(o) => { if (!o) onClose(); }} title={assertion ? "Edit assertion" : "New assertion"}
      description="What this trace should do when it is replayed. Assertions are judged on each replay of the trace.">
      <form onSubmit={submit} className="space-y-4">
        <Field label="Assertion">{(id) => <Textarea id={id} required value={form.assertion} onChange={set("assertion")} placeholder="The answer cites the refund policy" />}</Field>
        <TargetPicker value={target} onChange={setTarget} spans={spans.data?.spanNames} spansLoading={spans.isPending} />
        <CheckFields value={check} onChange={setCheck} allowNone="No check: a person or the LLM judge decides" />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Passes when">{(id) => <Textarea id={id} className="min-h-16" value={form.passCriteria} onChange={set("passCriteria")} />}</Field>
          <Field label="Fails when">{(id) => <Textarea id={id} className="min-h-16" value={form.failCriteria} onChange={set("failCriteria")} />}</Field>
        </div>
        <Field label="Note">{(id) => <Textarea id={id} className="min-h-14" value={form.humanNote} onChange={set("humanNote")} />}</Field>
        <FormError error={save.error} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>Cancel</Button>
          {/* A disabled field escapes the form's required check, so a span target waits for its names. */}
          <Button type="submit" disabled={save.isPending || (target.kind === "span" && spans.isPending)}>{assertion ? "Save assertion" : "Add assertion"}</Button>
        </div>
      </form>
    </Dialog>
  );
}
