// The health check's only database access: one round trip.
import type { DbClient } from "../db/client.ts";
import { sql } from "../db/sql.ts";

export async function pingDatabase(db: DbClient): Promise<void> {
  await db.sql.query(sql`SELECT 1`);
}
