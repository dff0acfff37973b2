import { listDatasetTraces, postDatasetTraces } from "@/server/datasets/datasets.http.ts";

export const dynamic = "force-dynamic";
export const GET = listDatasetTraces;
export const POST = postDatasetTraces;
