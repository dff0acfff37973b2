// Deleting data and restoring what a person decided, for agents (docs/mcp.md, "Deleting data"). Every tool asks
// the one permission check of server/lifecycle/may-delete.ts through its service.
import { z } from "zod";
import { parseWith } from "../../http/define-route.ts";
import { ZDeleteTracesBody } from "../../lifecycle/deletion/deletion.schemas.ts";
import { deleteTraces } from "../../lifecycle/deletion/deletion.service.ts";
import { deleteAssertion, deleteDataset, deleteGrader, findTombstones, restoreDeleted } from "../../lifecycle/deletion/items.service.ts";
import { fromJsonText, zBool, zId, zIds, zInt, zText } from "../args.ts";
import { defineTool } from "../tool.ts";

export const deleteTracesTool = defineTool({
  permission: "delete-data",
  name: "delete_traces",
  description:
    "Delete traces with everything that hangs from them (spans, labels, assertions, dataset membership), at once and for good. Name exactly one of: traceIds; filter (the trace list's filter: traceFunctionKey, status, search, labelState, kind, startedFrom, startedTo) — call first with dryRun true for the count, then again with confirmCount equal to it; sessionId (every trace of that session); userId (every trace whose metadata names that user under metadataKey, default userId).",
  input: {
    traceIds: zIds(1000).optional().describe("Trace ids (1–1000)."),
    filter: fromJsonText(z.record(z.string(), z.unknown())).optional().describe("The trace list's filter."),
    dryRun: zBool.optional().describe("With filter: only count the matching traces."),
    confirmCount: zInt(0, 1_000_000).optional().describe("With filter: the count the dry run answered."),
    sessionId: zText(10_000).optional(),
    userId: zText(10_000).optional(),
    metadataKey: zText(200).optional(),
  },
  run: async (args, { db, auth, actor }) => {
    const body = parseWith(ZDeleteTracesBody, args, "arguments");
    const result = await deleteTraces(db, auth, actor, body);
    const missing = result.notFoundTraceIds.length ? ` Not found: ${result.notFoundTraceIds.join(", ")}.` : "";
    const text = result.dryRun
      ? `${result.count} trace(s) match. To delete them, call again with confirmCount ${result.count}.`
      : `Deleted ${result.count} trace(s).${missing}`;
    return { text, data: result };
  },
});

export const deleteDatasetTool = defineTool({
  permission: "delete-data",
  name: "delete_dataset",
  description: "Delete a dataset with its membership and grader assignments. Its traces are never deleted.",
  input: { datasetId: zId },
  run: async ({ datasetId }, { db, auth, actor }) => {
    const result = await deleteDataset(db, auth, actor, datasetId);
    return { text: `Deleted dataset ${datasetId}; its ${result.keptTraceCount} trace(s) are kept.`, data: result };
  },
});

export const deleteGraderTool = defineTool({
  permission: "delete-data",
  name: "delete_grader",
  description: "Delete a grader. A tombstone keeps it: restore_deleted with the tombstone id brings it back with its history.",
  input: { graderId: zId },
  run: async ({ graderId }, { db, auth, actor }) => {
    const { tombstone } = await deleteGrader(db, auth, actor, graderId);
    return { text: `Deleted grader "${tombstone.name}" (${graderId}). To undo: restore_deleted with id ${tombstone.id}.`, data: { tombstone } };
  },
});

export const deleteAssertionTool = defineTool({
  permission: "delete-data",
  name: "delete_assertion",
  description: "Delete an assertion with its versions and verdicts. A tombstone keeps it: restore_deleted with the tombstone id brings it back.",
  input: { assertionId: zId },
  run: async ({ assertionId }, { db, auth, actor }) => {
    const { tombstone } = await deleteAssertion(db, auth, actor, assertionId);
    return { text: `Deleted assertion ${assertionId}. To undo: restore_deleted with id ${tombstone.id}.`, data: { tombstone } };
  },
});

export const listDeletedTool = defineTool({
  permission: "read",
  name: "list_deleted",
  description: "Deleted graders and assertions that can still be restored, newest first.",
  input: { kind: z.enum(["grader", "assertion"]).optional() },
  readOnly: true,
  run: async ({ kind }, { db, auth }) => {
    const { tombstones } = await findTombstones(db, auth.organizationId, kind);
    const lines = tombstones.map((t) => `- ${t.id}: ${t.kind} "${t.name}" deleted ${t.deletedAt} (${t.deletedVia})`);
    return { text: tombstones.length ? lines.join("\n") : "Nothing deleted can be restored.", data: { tombstones } };
  },
});

export const restoreDeletedTool = defineTool({
  permission: "delete-data",
  name: "restore_deleted",
  description: "Restore a deleted grader or assertion by its tombstone id (list_deleted lists them).",
  input: { id: zId },
  run: async ({ id }, { db, auth, actor }) => {
    const { tombstone } = await restoreDeleted(db, auth, actor, id);
    return { text: `Restored ${tombstone.kind} "${tombstone.name}" (${tombstone.itemId}).`, data: { tombstone } };
  },
});
