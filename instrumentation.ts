// Next.js calls register() once when a server process starts, before it serves requests.
// Heavy start-up work (migrations, first-run setup, workers) belongs here, never on the first request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { startServer } = await import("./server/startup.ts");
  try {
    await startServer();
  } catch (error) {
    console.error("Reprise could not start:", error);
    process.exit(1);
  }
}
