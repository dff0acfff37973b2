import { getWhoami } from "@/server/http/whoami.http.ts";

export const dynamic = "force-dynamic";
export const GET = getWhoami;
export const POST = getWhoami;
