import { getHealth } from "@/server/health/health.http.ts";

export const dynamic = "force-dynamic";
export const GET = getHealth;
