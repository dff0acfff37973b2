// Test helper (not a test): a grading worker process that the crash test kills with SIGKILL and
// starts again. Argument: JSON {url?, dataDir?, judgeUrl, expireInSeconds, exitWhenRunDone?}.
import { openDatabase } from "../../db/client.ts";
import { migrate } from "../../db/migrator.ts";
import { sql } from "../../db/sql.ts";
import { startWorkers } from "../../workers.ts";
import { createLimiter } from "../limiter.ts";

const args = JSON.parse(process.argv[2]) as { url?: string; dataDir?: string; judgeUrl: string; expireInSeconds: number; exitWhenRunDone?: string };
const db = await openDatabase({ url: args.url, dataDir: args.dataDir });
await migrate(db.sql);
const worker = await startWorkers(db, {
  judge: { baseUrl: args.judgeUrl, timeoutMs: 10_000, maxRetries: 2, maxRetryDelayMs: 100, limiter: createLimiter(2) },
  expireInSeconds: args.expireInSeconds,
  maintenanceIntervalSeconds: 1,
  pollIntervalMs: 200,
});
process.stdout.write("ready\n");
if (args.exitWhenRunDone) {
  for (;;) {
    const [run] = await db.sql.query<{ status: string }>(sql`SELECT status FROM grader_reruns WHERE id = ${args.exitWhenRunDone}::uuid`);
    if (run?.status === "completed" || run?.status === "errored") break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await worker.stop();
  await db.close();
  process.stdout.write("done\n");
  process.exit(0);
}
