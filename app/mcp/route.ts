import { deleteMcp, getMcp, postMcp } from "@/server/mcp/mcp.http.ts";

export const dynamic = "force-dynamic";
export const POST = postMcp;
export const GET = getMcp;
export const DELETE = deleteMcp;
