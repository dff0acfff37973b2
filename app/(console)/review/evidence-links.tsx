// Span evidence ({spanId, text}) as links that open the trace page on that span (/traces/<id>#span-<spanId>).
// Plain anchors: a hash change on the trace page itself then fires hashchange, which selects the span.

export function EvidenceLinks({ traceId, evidence }: { traceId: string; evidence: { spanId: string; text: string }[] | null | undefined }) {
  if (!evidence?.length) return null;
  return (
    <ul className="mt-1 space-y-0.5 text-xs" aria-label="Evidence">
      {evidence.map((e, i) => (
        <li key={`${e.spanId}-${i}`}>
          <a href={`/traces/${traceId}#span-${e.spanId}`} className="text-accent-700 dark:text-accent-300 hover:underline">
            Evidence: span {e.spanId.slice(0, 8)}
          </a>{" "}
          <span className="text-zinc-600">— {e.text}</span>
        </li>
      ))}
    </ul>
  );
}
