// Text forms of dataset answers: name, id, trace count and graders; membership changes with their counts.
import type { TDataset } from "../../datasets/datasets.schemas.ts";

export function datasetLine(d: TDataset): string {
  const graders = d.graders.length ? d.graders.map((g) => `${g.name} (${g.id})`).join(", ") : "none";
  return `${d.name} [ID: ${d.id}] · ${d.traceFunctionKey} · ${d.traceCount} trace${d.traceCount === 1 ? "" : "s"} · graders: ${graders}${d.description ? `\n  ${d.description}` : ""}`;
}

/** "Added 2, skipped 1 (…)": each list with its count, so agents report real numbers. */
export function countsText(parts: Array<[string, string[]]>): string {
  return parts.map(([word, ids]) => `${word} ${ids.length}${ids.length ? ` (${ids.join(", ")})` : ""}`).join("; ");
}
