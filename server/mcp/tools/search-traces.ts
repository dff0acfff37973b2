import { z } from "zod";
import { searchTracesWithLabels } from "../../trace-view/agent-reads.service.ts";
import { fromJsonText, zBool, zId, zIds, zInt, zText } from "../args.ts";
import { renderSearch } from "../render/traces.ts";
import { defineTool } from "../tool.ts";

/** YYYY-MM-DD that names a real calendar day, as a UTC midnight. */
const zDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .refine((s) => new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), "must be a real calendar date")
  .transform((s) => new Date(`${s}T00:00:00Z`));

const zCallerMetadata = fromJsonText(
  z
    .record(z.string().regex(/^[A-Za-z0-9_.:-]{1,40}$/, "keys are 1–40 of A-Z a-z 0-9 _ . : -"), z.union([z.string(), z.number(), z.boolean()]).transform(String).pipe(z.string().max(500)))
    .refine((m) => Object.keys(m).length <= 10, "at most 10 pairs"),
);

export const searchTracesTool = defineTool({
  name: "search_traces",
  permission: "read",
  description:
    "Find traces of one trace function, newest first, with status, timestamps, duration, tokens, model, current verdict and an output preview (never the inputs). " +
    "Failing traces are the validated ones labelled FAIL: validated: true, labelResult: false.",
  input: {
    traceFunctionKey: zText(1000).min(1).describe("The trace function (see list_trace_functions)."),
    searchQuery: zText(1000).optional().describe("Substring of the title, metadata, root input or output."),
    status: z.enum(["pending", "completed", "failed"]).optional(),
    createdAfter: zDay.optional().describe("YYYY-MM-DD, inclusive."),
    createdBefore: zDay.optional().describe("YYYY-MM-DD, exclusive."),
    traceFilterRegex: zText(1000).optional().describe("Regular expression over the title, metadata, root input and output."),
    limit: zInt(1, 50).default(10),
    drillDown: zBool.optional().describe("Longer output previews and each trace's error."),
    traceIds: zIds(100).optional().describe("Only these traces."),
    environment: zText(200).optional().describe("The trace's environment tag (metadata environment)."),
    labelSource: z.enum(["human", "agent"]).optional(),
    validated: zBool.optional().describe("Only traces whose verdict is (or is not) validated by a person."),
    labelResult: zBool.optional().describe("Only traces whose current verdict is PASS (true) or FAIL (false)."),
    includeReplays: zBool.default(false),
    experimentId: zId.optional().describe("Only the replays of this experiment (implies includeReplays)."),
    testRunId: zId.optional().describe("Older name of experimentId."),
    datasetId: zId.optional().describe("Only traces in this dataset."),
    hasDbSnapshot: zBool.optional().describe("Reprise takes no database snapshots: true matches nothing."),
    callerMetadata: zCallerMetadata.optional().describe("Metadata pairs that must all match, case-insensitively (at most 10)."),
    name: zText(256).optional().describe("Whole words of the title, in order, case-insensitive."),
    nameContains: zText(1000).min(3).optional().describe("Substring of the title (3 characters or more), case-insensitive."),
  },
  readOnly: true,
  run: async (args, { db, auth }) => {
    const result = await searchTracesWithLabels(db, auth.organizationId, { ...args, testRunId: args.experimentId ?? args.testRunId });
    return renderSearch(result, { drillDown: args.drillDown === true, traceFunctionKey: args.traceFunctionKey });
  },
});
