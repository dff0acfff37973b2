"use client";
// The trace's assertions on its page: list, add, edit, archive. A replay trace without
// assertions of its own shows its original's, which are edited on the original.
import { Link } from "@/components/ui/link.tsx";
import { useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { AssertionDialog, type Assertion } from "../../assertions/assertion-dialog.tsx";
import { AssertionItem } from "../../assertions/assertion-item.tsx";
import type { TTraceData as TraceData } from "../use-trace.ts";
import { useCan } from "../../_components/permissions.tsx";

export function TraceAssertions({ data }: { data: TraceData }) {
  const [editing, setEditing] = useState<Assertion | "new" | null>(null);
  const { assertions, inheritedFrom } = data.assertions;
  const canCurate = useCan("curate");
  return (
    <Card aria-label="Assertions">
      <CardHeader title="Assertions" description="Checked on every replay of this trace."
        actions={inheritedFrom || !canCurate ? null : <Button size="sm" onClick={() => setEditing("new")}>Add assertion</Button>} />
      {inheritedFrom ? (
        <p className="border-b border-zinc-100 px-4 py-2 text-xs text-zinc-600">
          Inherited from the <Link className="text-accent-700 dark:text-accent-300 underline" href={`/traces/${inheritedFrom}`}>original trace</Link>; edit them there.
        </p>
      ) : null}
      {assertions.length === 0 ? (
        <p className="px-4 py-3 text-sm text-zinc-500">No assertions yet. Add one to say what this trace must keep doing when your app changes.</p>
      ) : (
        <ul className="divide-y divide-zinc-100">
          {assertions.map((a) => <AssertionItem key={a.id} assertion={a} onEdit={inheritedFrom ? undefined : () => setEditing(a)} />)}
        </ul>
      )}
      {editing && canCurate ? <AssertionDialog traceId={data.trace.id} assertion={editing === "new" ? null : editing} onClose={() => setEditing(null)} /> : null}
    </Card>
  );
}
