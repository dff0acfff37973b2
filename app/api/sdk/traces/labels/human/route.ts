import { postHumanLabels } from "@/server/labels/labels.http.ts";

export const dynamic = "force-dynamic";
export const POST = postHumanLabels;
