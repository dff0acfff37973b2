import { listDatasets, postDataset } from "@/server/datasets/datasets.http.ts";

export const dynamic = "force-dynamic";
export const GET = listDatasets;
export const POST = postDataset;
