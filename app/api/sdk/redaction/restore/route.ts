import { routeMethods } from "@/server/http/methods.http.ts";
import { postRedactionRestore } from "@/server/redaction/redaction.http.ts";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: postRedactionRestore });
