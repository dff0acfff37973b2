"use client";
// The organization's redaction rules (docs/operations.md, "Redaction"): built-ins, custom patterns and masked
// fields, a sample to try them on before saving, and the history of versions with a restore for each.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Field, Textarea } from "@/components/ui/field.tsx";
import { formatDateTime } from "@/components/ui/format.ts";
import { ErrorState, FormError, LoadingState } from "@/components/ui/states.tsx";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { useCan } from "../_components/permissions.tsx";

type Settings = RouterOutputs["redaction"]["get"];
type Rules = Settings["rules"];

const BUILTINS: Array<{ id: Rules["builtins"][number]; label: string }> = [
  { id: "secrets", label: "API keys and bearer tokens" },
  { id: "emails", label: "E-mail addresses" },
  { id: "creditCards", label: "Credit-card numbers (Luhn-checked)" },
  { id: "phones", label: "Phone numbers" },
];

const patternsText = (rules: Rules) => rules.patterns.map((p) => `${p.name}: ${p.pattern}`).join("\n");

function parseRules(builtins: Rules["builtins"], patterns: string, fields: string): Rules {
  return {
    builtins,
    patterns: patterns.split("\n").map((l) => l.trim()).filter(Boolean).map((line) => {
      const at = line.indexOf(":");
      return at < 0 ? { name: "", pattern: line, flags: "" } : { name: line.slice(0, at).trim(), pattern: line.slice(at + 1).trim(), flags: "" };
    }),
    fields: fields.split("\n").map((l) => l.trim()).filter(Boolean),
  };
}

export function RedactionCard() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.redaction.get.queryOptions());
  return (
    <Card aria-labelledby="redaction-title">
      <CardHeader
        title={<span id="redaction-title">Redaction</span>}
        description="Masked at ingestion on every door, before anything is stored. Each change is a new version; restore any earlier one."
      />
      {settings.isPending ? <LoadingState label="Loading redaction rules" /> : settings.isError ? <ErrorState error={settings.error} onRetry={() => settings.refetch()} /> : <RulesForm settings={settings.data} />}
    </Card>
  );
}

function RulesForm({ settings }: { settings: Settings }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [builtins, setBuiltins] = useState<Rules["builtins"]>(settings.rules.builtins);
  const [patterns, setPatterns] = useState(patternsText(settings.rules));
  const [fields, setFields] = useState(settings.rules.fields.join("\n"));
  const [sample, setSample] = useState("");
  useEffect(() => {
    setBuiltins(settings.rules.builtins);
    setPatterns(patternsText(settings.rules));
    setFields(settings.rules.fields.join("\n"));
  }, [settings]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.redaction.get.queryKey() });
  const save = useMutation(trpc.redaction.save.mutationOptions({ onSuccess: refresh }));
  const restore = useMutation(trpc.redaction.restore.mutationOptions({ onSuccess: refresh }));
  const preview = useMutation(trpc.redaction.preview.mutationOptions());
  const rules = parseRules(builtins, patterns, fields);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ rules });
  };
  return (
    <div className="space-y-4 p-4">
      <form onSubmit={submit} className="space-y-4" aria-label="Redaction rules">
        <fieldset className="space-y-1">
          <legend className="text-sm font-medium text-zinc-700">Built-in detectors</legend>
          {BUILTINS.map((b) => (
            <label key={b.id} className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={builtins.includes(b.id)} onChange={(e) => setBuiltins(e.target.checked ? [...builtins, b.id] : builtins.filter((x) => x !== b.id))} />
              {b.label}
            </label>
          ))}
        </fieldset>
        <Field label="Custom patterns" hint="One per line: name: regular expression. Nested quantifiers and backreferences are refused.">
          {(id) => <Textarea id={id} value={patterns} onChange={(e) => setPatterns(e.target.value)} placeholder="account: ACCT-\d{8}" className="font-mono text-xs" />}
        </Field>
        <Field label="Masked fields" hint="One per line: a key masked at any depth (password, user.email), or a JSON path from the span document ($.span_data.input.card).">
          {(id) => <Textarea id={id} value={fields} onChange={(e) => setFields(e.target.value)} placeholder="password" className="font-mono text-xs" />}
        </Field>
        <FormError error={save.error} />
        <div className="flex items-center gap-3">
          <Button type="submit" disabled={save.isPending}>Save rules</Button>
          <span className="text-xs text-zinc-500">In force: version {settings.version || "none"}</span>
        </div>
      </form>
      <Field label="Try the rules on a sample" hint="Text or JSON; nothing is stored.">
        {(id) => <Textarea id={id} value={sample} onChange={(e) => setSample(e.target.value)} className="font-mono text-xs" />}
      </Field>
      <div className="flex items-center gap-3">
        <Button variant="secondary" size="sm" disabled={!sample || preview.isPending} onClick={() => preview.mutate({ rules, sample })}>Preview</Button>
        <FormError error={preview.error} />
      </div>
      {preview.data ? <pre aria-label="Redacted sample" className="overflow-x-auto rounded bg-zinc-50 p-2 text-xs">{preview.data.text}</pre> : null}
      <History settings={settings} onRestore={(version) => restore.mutate({ version })} busy={restore.isPending} />
      <FormError error={restore.error} />
    </div>
  );
}

function History({ settings, onRestore, busy }: { settings: Settings; onRestore: (version: number) => void; busy: boolean }) {
  const canRestore = useCan("manage-redaction");
  if (settings.versions.length === 0) return <p className="text-sm text-zinc-500">No rules yet: nothing is masked.</p>;
  return (
    <table className="w-full text-left text-sm" aria-label="Redaction rule versions">
      <thead className="text-xs text-zinc-500">
        <tr>
          <th scope="col" className="py-1 font-medium">Version</th>
          <th scope="col" className="py-1 font-medium">Rules</th>
          <th scope="col" className="py-1 font-medium">By</th>
          <th scope="col" className="py-1 font-medium">When</th>
          <th scope="col" className="py-1"><span className="sr-only">Actions</span></th>
        </tr>
      </thead>
      <tbody className="divide-y divide-zinc-100">
        {settings.versions.map((v) => (
          <tr key={v.version}>
            <td className="py-1">{v.version}{v.version === settings.version ? <Badge className="ml-2">In force</Badge> : null}{v.restoredFrom ? <span className="ml-2 text-xs text-zinc-500">restored {v.restoredFrom}</span> : null}</td>
            <td className="py-1 text-xs">{v.rules.builtins.length} built-in, {v.rules.patterns.length} pattern(s), {v.rules.fields.length} field(s)</td>
            <td className="py-1">{v.authorEmail ?? "—"}</td>
            <td className="py-1">{formatDateTime(v.createdAt)}</td>
            <td className="py-1 text-right">
              {v.version !== settings.version && canRestore ? <Button variant="secondary" size="sm" disabled={busy} onClick={() => onRestore(v.version)}>Restore</Button> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
