// GET /api/health: {"status":"ok"} once the database answers, 503 otherwise. No API key needed.
import { getDb } from "../db.ts";
import { logger } from "../logger.ts";
import { json } from "../http/responses.ts";
import { pingDatabase } from "./health.queries.ts";

export async function getHealth(): Promise<Response> {
  try {
    const db = await getDb();
    await pingDatabase(db);
    return json({ status: "ok" });
  } catch (error) {
    logger.warn("health check failed", { error });
    return json({ status: "unavailable", error: "The database is not reachable." }, { status: 503, headers: { "retry-after": "5" } });
  }
}
