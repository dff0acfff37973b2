// The four assertion-category tools (organization-wide categories, docs/api/assertions.md "Categories").
import { deleteAssertionCategory, findAssertionCategories, getAssertionCategory, saveAssertionCategory } from "../../assertions/categories/categories.service.ts";
import { zId, zText } from "../args.ts";
import { renderCategory } from "../render/assertions.ts";
import { defineTool } from "../tool.ts";

export const saveAssertionCategoryTool = defineTool({
  name: "save_assertion_category",
  permission: "curate",
  description: "Create an assertion category (title, description?) or edit one by id. Categories are organization-wide.",
  input: { id: zId.optional(), title: zText(200).min(1), description: zText(10_000).optional().describe("\"\" clears.") },
  run: async (args, { db, auth }) => {
    const { category, created } = await saveAssertionCategory(db, auth.organizationId, args);
    return { text: `${created ? "Created" : "Updated"} assertion category ${renderCategory(category)}`, data: { category, created } };
  },
});

export const listAssertionCategoriesTool = defineTool({
  name: "list_assertion_categories",
  permission: "read",
  description: "The organization's assertion categories with how many assertions each has.",
  input: {},
  readOnly: true,
  run: async (_args, { db, auth }) => {
    const { categories } = await findAssertionCategories(db, auth.organizationId);
    return { text: categories.length ? [`Assertion categories (${categories.length}):`, ...categories.map((c) => `- ${renderCategory(c)}`)].join("\n") : "No assertion categories.", data: { categories } };
  },
});

export const getAssertionCategoryTool = defineTool({
  name: "get_assertion_category",
  permission: "read",
  description: "One assertion category.",
  input: { id: zId },
  readOnly: true,
  run: async ({ id }, { db, auth }) => {
    const { category } = await getAssertionCategory(db, auth.organizationId, id);
    return { text: renderCategory(category), data: { category } };
  },
});

export const deleteAssertionCategoryTool = defineTool({
  name: "delete_assertion_category",
  permission: "curate",
  description: "Delete an assertion category; its assertions become uncategorized.",
  input: { id: zId },
  run: async ({ id }, { db, auth }) => {
    const result = await deleteAssertionCategory(db, auth.organizationId, id);
    return { text: `Deleted assertion category ${result.deleted}; ${result.uncategorized} assertion(s) are now uncategorized.`, data: result };
  },
});
