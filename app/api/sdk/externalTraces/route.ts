import { postExternalTrace } from "@/server/ingest/ingest.http.ts";

export const dynamic = "force-dynamic";
export const POST = postExternalTrace;
