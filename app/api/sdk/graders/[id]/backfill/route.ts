import { getBackfillRun, postBackfill } from "@/server/grading/backfill/backfill.http.ts";
import { routeMethods } from "@/server/http/methods.http.ts";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: getBackfillRun, POST: postBackfill });
