// A grader's declared output and the outcomes it accepts (docs/graders.md, "Scores and categories").
import { describe, expect, it } from "vitest";
import { parseJudgeAnswer, judgeSystemMessage } from "../grading/judge-prompt.ts";
import { checkOutcome, ZGraderOutput } from "./grader-output.schemas.ts";

const score = ZGraderOutput.parse({ type: "score", min: 0, max: 10, passThreshold: 7 });
const free = ZGraderOutput.parse({ type: "score", min: 0, max: 10 });
const tone = ZGraderOutput.parse({ type: "category", categories: ["Polite", "Rude"], passingCategories: ["Polite"] });

describe("grader output", () => {
  it("derives pass/fail from a threshold or passing categories, and refuses what contradicts it", () => {
    expect(checkOutcome(score, { score: 7 })).toEqual({ ok: true, outcome: { label: true, score: 7, category: null } });
    expect(checkOutcome(score, { score: 6.9 })).toEqual({ ok: true, outcome: { label: false, score: 6.9, category: null } });
    expect(checkOutcome(score, { score: 8, label: false })).toMatchObject({ ok: false, path: "label" });
    expect(checkOutcome(score, { score: 10.5 })).toMatchObject({ ok: false, path: "score" });
    expect(checkOutcome(free, { score: 3 })).toEqual({ ok: true, outcome: { label: null, score: 3, category: null } });
    expect(checkOutcome(free, { score: 3, label: true })).toEqual({ ok: true, outcome: { label: true, score: 3, category: null } });
    expect(checkOutcome(tone, { category: "rude" })).toEqual({ ok: true, outcome: { label: false, score: null, category: "Rude" } });
    expect(checkOutcome(tone, { category: "meh" })).toMatchObject({ ok: false, path: "category" });
    expect(checkOutcome(tone, { score: 1 })).toMatchObject({ ok: false, path: "score" });
    expect(checkOutcome({ type: "passFail" }, { category: "x" })).toMatchObject({ ok: false, path: "category" });
    expect(checkOutcome({ type: "passFail" }, {})).toMatchObject({ ok: false, path: "label" });
  });

  it("the judge is asked for the score and read strictly", () => {
    expect(judgeSystemMessage(score)).toContain('"score": a number from 0 to 10');
    expect(judgeSystemMessage(free)).toContain('"label"');
    expect(judgeSystemMessage()).toContain('"label"');
    expect(parseJudgeAnswer('{"score": 9, "reason": "good"}', score)).toMatchObject({ ok: true, verdict: { label: true, score: 9, category: null } });
    expect(parseJudgeAnswer('{"score": "9", "label": true}', score)).toMatchObject({ ok: false });
    expect(parseJudgeAnswer('{"score": -1}', score)).toEqual({ ok: false, reason: "The judge's score -1 lies outside the grader's range [0, 10]." });
    expect(parseJudgeAnswer('{"score": 4}', free)).toMatchObject({ ok: false, reason: expect.stringContaining('no boolean "label"') });
    expect(parseJudgeAnswer('```json\n{"category": " polite ", "label": false}\n```', tone)).toMatchObject({ ok: true, verdict: { label: true, category: "Polite" } });
    // Pass/fail graders read as before: no score or category fields in the verdict.
    expect(parseJudgeAnswer('{"label": "pass", "score": 3}')).toEqual({ ok: true, verdict: { label: true, reason: null, failureDiagnostic: null, confidence: null } });
  });
});
