import { listRecomputes, postRecompute } from "@/server/insight/cost/cost.http.ts";
import { routeMethods } from "@/server/http/methods.http.ts";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: listRecomputes, POST: postRecompute });
