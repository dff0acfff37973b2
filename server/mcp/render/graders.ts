// Text form of a grader: name, id, kind, status, version and what it checks; and what a save did to it.
import { outputOf, type TGraderOutput } from "../../graders/grader-output.schemas.ts";
import type { TGrader, TGraderAuthor, TGraderVersion, TSaveGraderResponse } from "../../graders/graders.schemas.ts";
import { asText, cut } from "./text.ts";

export function graderLine(g: TGrader): string {
  const config = g.config as { model?: string; instructions?: string };
  const what = g.kind === "llm_judge" ? `model ${config.model}; ${cut(config.instructions ?? "", 400, "full text in the grader's config")}` : cut(asText(g.config), 400, "full config over REST");
  const output = outputText(outputOf(g.config));
  return `${g.name} [ID: ${g.id}] · ${g.traceFunctionKey} · ${g.kind} · ${g.status}${g.live ? " · live" : ""} · version ${g.version}${output ? ` · ${output}` : ""}\n  ${what.replace(/\n+/g, " / ")}`;
}

/** What a grader records besides pass/fail (docs/graders.md, "Scores and categories"); empty for pass/fail only. */
export function outputText(o: TGraderOutput): string {
  if (o.type === "score") return `score ${o.min}–${o.max}${o.passThreshold !== undefined ? `, passes at ${o.passThreshold} or more` : ""}`;
  if (o.type === "category") return `categories ${o.categories.join(" | ")}${o.passingCategories ? `, passing: ${o.passingCategories.join(" | ") || "none"}` : ""}`;
  return "";
}

export function authorText(a: TGraderAuthor): string {
  const who = a.name ?? (a.via === "migration" ? "unknown (before history was kept)" : "a deleted user");
  const how = a.via === "console" ? "in the console" : a.via === "rest" ? "with a REST key" : a.via === "mcp" ? `through the agent tool ${a.tool ?? "(unnamed)"}` : "";
  return how ? `${who} ${how}` : who;
}

/** What save_grader did: created, updated as a new version (naming the kept previous one and how to revert), or nothing. */
export function graderSavedText(saved: TSaveGraderResponse, previous?: TGraderVersion): string {
  const g = saved.grader;
  if (saved.created) return `Created grader ${graderLine(g)}`;
  if (!saved.changed) return `No change: grader ${g.name} already reads this way (version ${g.version}).\n${graderLine(g)}`;
  const kept = previous
    ? `The previous version ${previous.version} (by ${authorText(previous.author)}, ${previous.createdAt}) is kept in the grader's history`
    : `The previous version ${saved.previousVersion} is kept in the grader's history`;
  return [
    `Updated grader ${g.name} to version ${g.version}, recorded as this agent's change.`,
    `${kept}; a person can compare and revert it in the console (Graders → History), or with POST /api/sdk/graders/${g.id}/revert {"version": ${saved.previousVersion}}.`,
    graderLine(g),
  ].join("\n");
}
