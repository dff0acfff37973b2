import { restoreAlertRuleRoute } from "@/server/insight/alerts/alerts.http.ts";
import { routeMethods } from "@/server/http/methods.http.ts";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: restoreAlertRuleRoute });
