// Assertion categories: organization-wide (docs/api/assertions.md, "Categories").
import { z } from "zod";
import { ZUuid, zText } from "../../shared/schemas.ts";

export const ZSaveCategoryBody = z.object({
  /** Edits this category; without it a new one is created. */
  id: ZUuid.optional(),
  title: zText(200).refine((s) => s.trim() !== "", "must not be empty"),
  /** Omitted keeps, "" or null clears. */
  description: zText(10_000).nullable().optional(),
});
export type TSaveCategoryBody = z.infer<typeof ZSaveCategoryBody>;
export const ZCategoryParams = z.object({ id: z.string() });

export const ZAssertionCategory = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  assertionCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TAssertionCategory = z.infer<typeof ZAssertionCategory>;
export const ZCategoryResponse = z.object({ category: ZAssertionCategory });
export const ZCategoriesResponse = z.object({ categories: z.array(ZAssertionCategory) });
export const ZDeleteCategoryResponse = z.object({ deleted: z.string(), uncategorized: z.number().int() });
