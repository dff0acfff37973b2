import { getTraceRoute, patchTraceRoute } from "@/server/traces/traces.http.ts";
import { deleteTraceRoute } from "@/server/lifecycle/deletion/deletion.http.ts";
import { routeMethods } from "@/server/http/methods.http.ts";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: getTraceRoute, PATCH: patchTraceRoute, DELETE: deleteTraceRoute });
