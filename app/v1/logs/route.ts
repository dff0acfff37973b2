import { postNativeLogs } from "@/server/ingest/native/native-logs.http.ts";

export const dynamic = "force-dynamic";
export const POST = postNativeLogs;
