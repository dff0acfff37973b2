// A trace outline (docs/replay.md, "Complete"): the span tree without content, with type, duration,
// tokens, model, errors and the mocked marker, for side-by-side comparison.
import { Badge } from "@/components/ui/badge.tsx";
import { formatDuration, formatNumber } from "@/components/ui/format.ts";
import type { RouterOutputs } from "@/components/trpc/types.ts";

type Outline = NonNullable<RouterOutputs["replays"]["get"]["items"][number]["original"]>["outline"];
type OutlineSpan = Outline["spans"][number];

export function OutlineTree({ outline, label }: { outline: Outline; label: string }) {
  if (outline.spans.length === 0) return <p className="text-xs text-zinc-500">No spans recorded.</p>;
  return (
    <ul aria-label={label} className="space-y-0.5 text-xs">
      {outline.spans.map((s, i) => <OutlineNode key={`${s.spanId}-${i}`} span={s} depth={0} />)}
    </ul>
  );
}

function OutlineNode({ span, depth }: { span: OutlineSpan; depth: number }) {
  const failed = span.errors?.some((e) => e.source !== "sdk");
  return (
    <li aria-label={span.name}>
      <div className="flex min-w-0 items-center gap-1.5 rounded px-1 py-0.5 hover:bg-zinc-50" style={{ paddingLeft: `${Math.min(depth, 10) * 0.9 + 0.25}rem` }}>
        <Badge className="shrink-0 px-1 py-0 text-[10px]">{span.type}</Badge>
        <span className="truncate font-medium text-zinc-800">{span.name}</span>
        {failed ? <Badge tone="fail" title={span.errors!.map((e) => e.error).join("\n")}>error</Badge> : null}
        {span.mocked ? <Badge tone="accent" title="Served from the recorded output during replay">mocked</Badge> : null}
        <span className="ml-auto shrink-0 text-zinc-500 tabular-nums">
          {formatDuration(span.durationMs)}
          {span.tokens ? ` · ${formatNumber(span.tokens.total)} tok` : ""}
        </span>
      </div>
      {span.children.length > 0 ? (
        <ul className="space-y-0.5">{span.children.map((c, i) => <OutlineNode key={`${c.spanId}-${i}`} span={c} depth={depth + 1} />)}</ul>
      ) : null}
    </li>
  );
}
