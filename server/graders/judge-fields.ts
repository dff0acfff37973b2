// The agents' plugins describe an LLM grader by an evaluation focus, pass criteria and fail criteria
// (docs/mcp.md, "save_grader"). Reprise's llm_judge grader has one `instructions` text: the three fields
// are written into it under fixed headings, so a later save that changes one field keeps the others.
const HEADINGS = { evaluationFocus: "Evaluation focus:", passCriteria: "Pass criteria:", failCriteria: "Fail criteria:" } as const;
type Field = keyof typeof HEADINGS;
export type TGraderFields = Partial<Record<Field, string>>;

export function composeInstructions(fields: TGraderFields): string {
  return (Object.keys(HEADINGS) as Field[])
    .filter((f) => fields[f] !== undefined && fields[f]!.trim() !== "")
    .map((f) => `${HEADINGS[f]} ${fields[f]!.trim()}`)
    .join("\n\n");
}

/** The fields of instructions written by composeInstructions; other text is read as the evaluation focus. */
export function parseInstructions(instructions: string): TGraderFields {
  const starts = (Object.keys(HEADINGS) as Field[])
    .map((f) => ({ f, at: instructions.startsWith(HEADINGS[f]) ? 0 : instructions.indexOf(`\n\n${HEADINGS[f]}`) }))
    .filter((s) => s.at >= 0)
    .sort((a, b) => a.at - b.at);
  if (starts.length === 0 || starts[0].at !== 0) return instructions.trim() ? { evaluationFocus: instructions.trim() } : {};
  const out: TGraderFields = {};
  starts.forEach((s, i) => {
    const from = s.at + (s.at === 0 ? 0 : 2) + HEADINGS[s.f].length;
    const to = i + 1 < starts.length ? starts[i + 1].at : instructions.length;
    out[s.f] = instructions.slice(from, to).trim();
  });
  return out;
}
