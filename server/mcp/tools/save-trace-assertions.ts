import { z } from "zod";
import { saveAssertions } from "../../assertions/assertions.service.ts";
import { ZCheck, ZSaveAssertionsBody } from "../../assertions/assertions.schemas.ts";
import { parseWith } from "../../http/define-route.ts";
import { fromJsonText, zEvidenceArg, zId, zText } from "../args.ts";
import { renderSavedAssertions } from "../render/assertions.ts";
import { defineTool } from "../tool.ts";

const zTarget = fromJsonText(
  z.union([
    z.object({ kind: z.literal("output") }),
    z.object({ kind: z.literal("span"), name: zText(500).min(1), occurrence: z.union([z.enum(["first", "last"]), z.number().int().min(0)]).optional() }),
  ]),
);

const zEntry = fromJsonText(
  z.object({
    id: zId.optional().describe("Edit this assertion; omit to add one."),
    assertion: zText(20_000).optional().describe("What the next run must do (required for a new one)."),
    passCriteria: zText(20_000).optional(),
    failCriteria: zText(20_000).optional(),
    targetOnEvaluatedTrace: zTarget.nullable().optional().describe('{kind:"output"} or {kind:"span", name, occurrence?}; omit for the whole trace.'),
    justification: zEvidenceArg,
    categoryJustification: zText(20_000).optional(),
    category_assertion_id: zId.or(z.literal("")).nullable().optional().describe("An assertion category id (list_assertion_categories); null or \"\" clears."),
    humanNote: zText(10_000).optional(),
    check: fromJsonText(ZCheck).nullable().optional().describe("Reprise's extension: a deterministic check (the rule graders' grammar) instead of the judge."),
    approvalState: z.enum(["pending", "approved", "rejected"]).optional().describe("Only on an existing assertion; new ones await review."),
    assigneeEmail: zText(320).nullable().optional().describe("A member's email (list_organization_members); null or \"\" clears."),
  }),
);

/** "" clears a text field (the contract's rule); the services take null for that. */
const orNull = (v: string | null | undefined) => (v === "" ? null : v);

export const saveTraceAssertionsTool = defineTool({
  name: "save_trace_assertions",
  permission: "curate",
  description:
    "Add or edit 1–50 assertions on an ORIGINAL trace (a replay id is refused). New assertions are saved awaiting review (a person approves them " +
    "in the console before replays judge them); approvalState is refused on a new one. Rewording, or changing the target, criteria or category, " +
    "sends an assertion back to review unless the same call sets approvalState. Omitted fields are kept and \"\" clears.",
  input: {
    traceId: zId.describe("The original trace."),
    assertions: fromJsonText(z.array(zEntry).min(1, "give 1 to 50 assertions").max(50, "give 1 to 50 assertions")),
  },
  run: async (args, { db, auth, actor }) => {
    const assertions = args.assertions.map((a) => ({
      ...a,
      assertion: a.assertion === "" ? undefined : a.assertion,
      passCriteria: orNull(a.passCriteria),
      failCriteria: orNull(a.failCriteria),
      humanNote: orNull(a.humanNote),
      categoryJustification: orNull(a.categoryJustification),
      category_assertion_id: orNull(a.category_assertion_id),
      assigneeEmail: orNull(a.assigneeEmail),
    }));
    const body = parseWith(ZSaveAssertionsBody, { updates: [{ traceId: args.traceId, assertions }], source: "agent" }, "arguments");
    const saved = await saveAssertions(db, auth, actor, body, "agent", { originalsOnly: true });
    const pending = saved.assertions.filter((a) => a.approvalState === "pending").length;
    return {
      text: renderSavedAssertions(`Saved ${saved.assertions.length} assertion(s) on trace ${args.traceId}; ${pending} awaiting review (approve them in the console's review queue).`, saved.assertions),
      data: saved,
    };
  },
});
