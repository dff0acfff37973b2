import { getSpanRoute } from "@/server/spans/spans.http.ts";

export const dynamic = "force-dynamic";
export const GET = getSpanRoute;
