import { postRemoveDatasetGraders } from "@/server/datasets/datasets.http.ts";

export const dynamic = "force-dynamic";
export const POST = postRemoveDatasetGraders;
