// Wire contracts of pins (docs/api.md, "Retention").
import { z } from "zod";

export const ZPinBody = z.object({ pinned: z.boolean() }).strict();

export const ZPinResponse = z.object({
  traceId: z.string(),
  pinned: z.boolean(),
  pinnedAt: z.string().nullable(),
  pinnedByUserId: z.string().nullable(),
});
