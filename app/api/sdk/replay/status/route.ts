import { postReplayStatus } from "@/server/replay/replay.http.ts";

export const dynamic = "force-dynamic";
export const POST = postReplayStatus;
