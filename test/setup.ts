// Quiet logs in tests unless asked for.
process.env.REPRISE_LOG_LEVEL ??= "silent";
