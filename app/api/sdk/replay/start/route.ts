import { postReplayStart } from "@/server/replay/replay.http.ts";

export const dynamic = "force-dynamic";
export const POST = postReplayStart;
