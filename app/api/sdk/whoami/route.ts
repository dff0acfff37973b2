import { getWhoami } from "@/server/account/account.http.ts";

export const dynamic = "force-dynamic";
export const GET = getWhoami;
export const POST = getWhoami;
