// Wire contracts of the prompt functions (docs/api/functions.md; POST /api/sdk/functions is
// Reprise's own addition).
import { z } from "zod";
import { zText } from "../shared/schemas.ts";

export const ZProvider = z.object({
  provider: zText(200).min(1),
  apiKeyEnv: zText(200).optional(),
  models: z.array(z.object({ model: zText(200).min(1), description: zText(10_000).optional() })).max(200).optional(),
});

export const ZFunctionName = zText(200).min(1);

export const ZFunctionCreate = z.object({
  name: ZFunctionName,
  // The BAML source; may be empty until someone writes it (the SDK then points at the console).
  prompt: zText(1_000_000),
  providers: z.array(ZProvider).max(100).optional(),
});
export type TFunctionCreate = z.output<typeof ZFunctionCreate>;

export const ZFunctionLookup = z.object({ name: ZFunctionName });

export const ZFunction = z.object({
  id: z.string(),
  name: z.string(),
  versionId: z.string(),
  versionNumber: z.number().int(),
  prompt: z.string(),
  providers: z.array(z.unknown()),
});
export type TFunction = z.output<typeof ZFunction>;

export const ZFunctionCreateResponse = z.object({ function: ZFunction, created: z.boolean() });
export const ZFunctionLookupResponse = z.union([ZFunction, z.object({ id: z.null() })]);
