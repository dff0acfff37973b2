import { getTraceLabels, postAgentLabels } from "@/server/labels/labels.http.ts";

export const dynamic = "force-dynamic";
export const GET = getTraceLabels;
export const POST = postAgentLabels;
