import { routeMethods } from "@/server/http/methods.http.ts";
import { postImport } from "@/server/transfer/transfer.http.ts";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: postImport });
