import { getRerunGraders, postRerunGraders } from "@/server/grading/reruns/reruns.http.ts";

export const dynamic = "force-dynamic";
export const GET = getRerunGraders;
export const POST = postRerunGraders;
