import { postOtlpTraces } from "@/server/ingest/otlp/otlp.http.ts";

export const dynamic = "force-dynamic";
export const POST = postOtlpTraces;
