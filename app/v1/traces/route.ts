import { postNativeTraces } from "@/server/ingest/native/native.http.ts";

export const dynamic = "force-dynamic";
export const POST = postNativeTraces;
