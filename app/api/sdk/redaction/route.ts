import { routeMethods } from "@/server/http/methods.http.ts";
import { getRedaction, putRedaction } from "@/server/redaction/redaction.http.ts";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: getRedaction, PUT: putRedaction });
