import { getDatasetById } from "@/server/datasets/datasets.http.ts";

export const dynamic = "force-dynamic";
export const GET = getDatasetById;
