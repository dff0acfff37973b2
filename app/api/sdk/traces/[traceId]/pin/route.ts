import { getPinRoute, putPinRoute } from "@/server/lifecycle/retention/retention.http.ts";
import { routeMethods } from "@/server/http/methods.http.ts";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: getPinRoute, PUT: putPinRoute });
