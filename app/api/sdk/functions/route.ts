import { createFunctionRoute } from "@/server/functions/functions.http.ts";

export const dynamic = "force-dynamic";
export const POST = createFunctionRoute;
