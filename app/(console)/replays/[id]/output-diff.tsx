// The original's and each replay's root output side by side, with the replay's changed lines marked
// against the original (a line diff of the pretty-printed JSON, or of the text for string outputs).
import { cn } from "@/components/ui/cn.ts";
import { rawJson } from "@/components/payload-view.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { diffLines, type DiffLine } from "./text-diff.ts";

type Outputs = RouterOutputs["replays"]["get"]["outputs"];
type Output = Outputs[string] | undefined;

const textOf = (o: Output) => (o === undefined ? null : o.tooLarge ? null : rawJson(o.output));

export function OutputDiff({ outputs, originalId, replays }: { outputs: Outputs; originalId: string | null; replays: { traceId: string; label: string }[] }) {
  const original = originalId ? textOf(outputs[originalId]) : null;
  return (
    <section aria-label="Outputs" className="space-y-2">
      <h4 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">Output</h4>
      <div className="grid gap-3 lg:grid-cols-2">
        <OutputBox title="Original" text={original} output={originalId ? outputs[originalId] : undefined} />
        <div className="min-w-0 space-y-3">
          {replays.map((r) => {
            const text = textOf(outputs[r.traceId]);
            const diff = original !== null && text !== null ? diffLines(original, text) : null;
            const changed = diff ? diff.some((d) => d.kind !== "same") : original !== text;
            return (
              <OutputBox key={r.traceId} title={`${r.label}${original !== null && text !== null ? (changed ? " · changed" : " · same as the original") : ""}`}
                text={text} output={outputs[r.traceId]} diff={diff && changed ? diff : null} />
            );
          })}
        </div>
      </div>
    </section>
  );
}

function OutputBox({ title, text, output, diff }: { title: string; text: string | null; output: Output; diff?: DiffLine[] | null }) {
  return (
    <div className="min-w-0" role="group" aria-label={`${title.split(" · ")[0]} output`}>
      <p className="mb-1 text-xs text-zinc-600">{title}</p>
      {output?.tooLarge ? <p className="text-xs text-zinc-500">Too large to compare here; open the trace.</p> : text === null ? <p className="text-xs text-zinc-500">No output recorded.</p> : (
        <pre className="max-h-80 overflow-auto rounded-md bg-zinc-50 p-2 font-mono text-xs break-words whitespace-pre-wrap text-zinc-800">
          {diff ? diff.map((d, i) => (
            <span key={i} className={cn("block", d.kind === "added" && "bg-emerald-50 text-emerald-800", d.kind === "removed" && "bg-red-50 text-red-800 line-through")}>
              <span aria-hidden className="select-none">{d.kind === "added" ? "+ " : d.kind === "removed" ? "− " : "  "}</span>
              <span className="sr-only">{d.kind === "added" ? "added: " : d.kind === "removed" ? "removed: " : ""}</span>
              {d.text || " "}
            </span>
          )) : text}
        </pre>
      )}
    </div>
  );
}
