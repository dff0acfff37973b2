import { getSimPlanRoute, postSimPlanRoute } from "@/server/sim-plan/sim-plan.http.ts";

export const dynamic = "force-dynamic";
export const GET = getSimPlanRoute;
export const POST = postSimPlanRoute;
