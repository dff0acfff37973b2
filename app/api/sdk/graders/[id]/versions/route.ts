import { getGraderVersions } from "@/server/graders/graders.http.ts";
import { routeMethods } from "@/server/http/methods.http.ts";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: getGraderVersions });
