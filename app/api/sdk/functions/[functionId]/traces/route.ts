import { postFunctionTrace } from "@/server/ingest/ingest.http.ts";

export const dynamic = "force-dynamic";
export const POST = postFunctionTrace;
