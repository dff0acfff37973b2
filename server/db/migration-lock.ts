// The cluster-wide advisory lock under which schema changes happen once, whichever instance gets there first: our
// migrations (migrator.ts), the distribution of our tables on Citus (citus.ts), the job queue's own schema.

/** Arbitrary constant: "REPRISE" in ASCII, used for pg_advisory_xact_lock. */
export const MIGRATION_LOCK_ID = 0x5245505249;
