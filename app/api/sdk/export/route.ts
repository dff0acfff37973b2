import { routeMethods } from "@/server/http/methods.http.ts";
import { getExport } from "@/server/transfer/transfer.http.ts";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: getExport });
