import { routeMethods } from "@/server/http/methods.http.ts";
import { getSdkFile } from "@/server/sdk-dist/sdk-dist.http.ts";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: getSdkFile });
