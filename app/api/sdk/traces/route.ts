import { listTracesRoute } from "@/server/traces/traces.http.ts";

export const dynamic = "force-dynamic";
export const GET = listTracesRoute;
