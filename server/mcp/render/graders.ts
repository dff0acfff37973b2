// Text form of a grader: name, id, kind, status and what it checks.
import type { TGrader } from "../../graders/graders.schemas.ts";
import { asText, cut } from "./text.ts";

export function graderLine(g: TGrader): string {
  const config = g.config as { model?: string; instructions?: string };
  const what = g.kind === "llm_judge" ? `model ${config.model}; ${cut(config.instructions ?? "", 400, "full text in the grader's config")}` : cut(asText(g.config), 400, "full config over REST");
  return `${g.name} [ID: ${g.id}] · ${g.traceFunctionKey} · ${g.kind} · ${g.status}${g.live ? " · live" : ""}\n  ${what.replace(/\n+/g, " / ")}`;
}
