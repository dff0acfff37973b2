-- Dashboard rollups (docs/scaling.md, "Dashboard"): the latency histogram moves into the 'traces' row of each
-- (organization, hour, trace function), as two arrays of the same length: the log-spaced buckets that hold traces,
-- ascending, and each one's count. The volume and functions charts then read one row per hour and function instead
-- of one per latency bucket (about 70 for latencies of 0.2-6 s), more rows than the traces index they replace.
-- Sparse (buckets, counts) rather than counts indexed by bucket: an hour's latencies fill a narrow band of the
-- 300-odd buckets up to an hour, and array_agg over a GROUP BY builds the pair with no zero filling.
ALTER TABLE "dashboard_rollups" ADD COLUMN "latency_buckets" INTEGER[] NOT NULL DEFAULT '{}';
ALTER TABLE "dashboard_rollups" ADD COLUMN "latency_counts" INTEGER[] NOT NULL DEFAULT '{}';

-- The stored rollups are dropped and rebuilt rather than converted: with no rolled-up hour the dashboard reads the
-- exact statements, and the job rolls every hour up again from the first trace, 24 hours per transaction, as on the
-- first start after migration 0295.
DELETE FROM "dashboard_rollups";
DELETE FROM "dashboard_rollup_dirty";
UPDATE "dashboard_rollup_state" SET "rolled_to" = NULL, "watermark" = NULL;
