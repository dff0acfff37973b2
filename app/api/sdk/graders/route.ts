import { listGraders, postGrader } from "@/server/graders/graders.http.ts";

export const dynamic = "force-dynamic";
export const GET = listGraders;
export const POST = postGrader;
