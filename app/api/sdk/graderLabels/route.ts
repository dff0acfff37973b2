import { getGraderLabels, postGraderLabels } from "@/server/labels/labels.http.ts";
import { routeMethods } from "@/server/http/methods.http.ts";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: getGraderLabels, POST: postGraderLabels });
