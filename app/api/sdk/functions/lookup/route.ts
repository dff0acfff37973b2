import { lookupFunctionRoute } from "@/server/functions/functions.http.ts";

export const dynamic = "force-dynamic";
export const POST = lookupFunctionRoute;
