// Export and import's one read outside their rows: whether the organization named on the command line exists.
import type { DbClient } from "../db/client.ts";
import { sql } from "../db/sql.ts";

export async function organizationExists(db: DbClient, organizationId: string): Promise<boolean> {
  const rows = await db.sql.query(sql`SELECT 1 FROM organizations WHERE id = ${organizationId}::uuid`);
  return rows.length > 0;
}
