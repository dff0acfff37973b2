import { getTraceRoute, patchTraceRoute } from "@/server/traces/traces.http.ts";

export const dynamic = "force-dynamic";
export const GET = getTraceRoute;
export const PATCH = patchTraceRoute;
