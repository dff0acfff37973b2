import { getExternalSpanRoute } from "@/server/spans/spans.http.ts";

export const dynamic = "force-dynamic";
export const GET = getExternalSpanRoute;
