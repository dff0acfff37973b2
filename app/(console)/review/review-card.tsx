"use client";
// One pending assertion in the review queue: what it says, what will be judged (its target and check: what a
// replay actually runs), and for the focused card the trace's context beside it and its graders' scores (S records
// the first). E opens the edit form, which
// edits the statement, the target, the check and the criteria (Ctrl+Enter saves, Escape cancels).
import { useMutation, useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link.tsx";
import { useState } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { Field, Textarea } from "@/components/ui/field.tsx";
import { FormError } from "@/components/ui/states.tsx";
import { CheckFields, checkFromConfig, describeCheck, toCheck, type CheckState } from "@/components/check-fields.tsx";
import { TargetPicker, describeTarget, targetFromConfig, toTarget, type TargetState } from "@/components/target-picker.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterInputs, RouterOutputs } from "@/components/trpc/types.ts";
import { EvidenceLinks } from "./evidence-links.tsx";
import { ReviewContext } from "./review-context.tsx";
import { TraceScores } from "./trace-scores.tsx";

export type Pending = RouterOutputs["review"]["queue"]["assertions"][number];
type Saved = RouterOutputs["review"]["edit"];

export function PendingCard({ a, focused, selected, onToggle, onFocus, editing, onEditDone }: {
  a: Pending;
  focused: boolean;
  selected: boolean;
  onToggle: () => void;
  onFocus: () => void;
  editing: boolean;
  onEditDone: (saved: Saved | null) => void;
}) {
  const check = describeCheck(a.check);
  return (
    <Card aria-label={`Assertion: ${a.assertion}`} aria-current={focused ? "true" : undefined} onClick={onFocus}
      className={focused ? "ring-2 ring-accent-500" : undefined}>
      <div className="flex gap-3 p-4">
        <input type="checkbox" className="mt-1" checked={selected} onChange={onToggle} aria-label={`Select: ${a.assertion}`} />
        <div className={`grid min-w-0 flex-1 gap-4 ${focused || editing ? "lg:grid-cols-2" : ""}`}>
          <div className="min-w-0 space-y-1 text-sm">
            {editing ? <EditForm a={a} onDone={onEditDone} /> : (
              <>
                <p className="font-medium text-zinc-900">{a.assertion}</p>
                <div className="flex flex-wrap items-center gap-1.5 text-xs text-zinc-600" role="group" aria-label="What will be judged">
                  <span>Judged on</span><Badge>{describeTarget(a.targetOnEvaluatedTrace)}</Badge>
                  <span>by</span>{check ? <Badge tone="accent">{check}</Badge> : <span>a person or the LLM judge (no check)</span>}
                </div>
                {a.passCriteria ? <p className="text-xs text-zinc-600">Passes when {a.passCriteria}</p> : null}
                {a.failCriteria ? <p className="text-xs text-zinc-600">Fails when {a.failCriteria}</p> : null}
              </>
            )}
            <p className="flex flex-wrap items-center gap-2 text-xs text-zinc-600">
              <Link href={`/traces/${a.trace.id}`} className="text-accent-700 dark:text-accent-300 hover:underline">{a.trace.name || a.trace.traceFunctionKey || a.trace.id.slice(0, 8)}</Link>
              {a.trace.traceFunctionKey ? <span className="font-mono">{a.trace.traceFunctionKey}</span> : null}
              <Badge>{a.source}</Badge>
              {a.category ? <Badge tone="accent">{a.category.title}</Badge> : null}
              {a.assigneeEmail ? <span>Assigned to {a.assigneeEmail}</span> : null}
            </p>
            {a.humanNote ? <p className="text-xs text-zinc-600">Note: {a.humanNote}</p> : null}
            <EvidenceLinks traceId={a.trace.id} evidence={a.justification} />
            {focused ? <TraceScores traceId={a.trace.id} /> : null}
          </div>
          {focused || editing ? <ReviewContext assertionId={a.id} hasCheck={a.check !== null} /> : null}
        </div>
      </div>
    </Card>
  );
}

function EditForm({ a, onDone }: { a: Pending; onDone: (saved: Saved | null) => void }) {
  const trpc = useTRPC();
  const spans = useQuery(trpc.assertions.forTrace.queryOptions({ traceId: a.traceId }));
  const [text, setText] = useState(a.assertion);
  const [pass, setPass] = useState(a.passCriteria ?? "");
  const [fail, setFail] = useState(a.failCriteria ?? "");
  const [target, setTarget] = useState<TargetState>(targetFromConfig(a.targetOnEvaluatedTrace));
  const [check, setCheck] = useState<CheckState>(checkFromConfig(a.check, ""));
  const edit = useMutation(trpc.review.edit.mutationOptions({ onSuccess: (saved) => onDone(saved) }));
  const save = () => edit.mutate({
    traceId: a.traceId,
    assertion: {
      id: a.id,
      assertion: text,
      passCriteria: pass || null,
      failCriteria: fail || null,
      targetOnEvaluatedTrace: toTarget(target),
      // The server parses the check (ZCheck); the form only offers its operations.
      check: check.op ? (toCheck(check) as RouterInputs["review"]["edit"]["assertion"]["check"]) : null,
    },
  });
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === "Escape") { e.preventDefault(); onDone(null); }
    else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); save(); }
  };
  return (
    <div className="space-y-2" onKeyDown={onKey} role="group" aria-label="Edit the assertion">
      <Field label="Assertion">{(id) => <Textarea id={id} autoFocus value={text} onChange={(e) => setText(e.target.value)} />}</Field>
      <TargetPicker value={target} onChange={setTarget} spans={spans.data?.spanNames} spansLoading={spans.isPending} />
      <CheckFields value={check} onChange={setCheck} allowNone="No check: a person or the LLM judge decides" />
      <div className="grid gap-2 sm:grid-cols-2">
        <Field label="Passes when">{(id) => <Textarea id={id} className="min-h-12" value={pass} onChange={(e) => setPass(e.target.value)} />}</Field>
        <Field label="Fails when">{(id) => <Textarea id={id} className="min-h-12" value={fail} onChange={(e) => setFail(e.target.value)} />}</Field>
      </div>
      <FormError error={edit.error} />
      <div className="flex gap-2">
        <Button size="sm" onClick={save} disabled={edit.isPending || text.trim() === "" || (target.kind === "span" && spans.isPending) || (check.op !== "" && check.op !== "noErrors" && check.value.trim() === "")}>Save (Ctrl+Enter)</Button>
        <Button size="sm" variant="secondary" onClick={() => onDone(null)}>Cancel (Esc)</Button>
      </div>
    </div>
  );
}
