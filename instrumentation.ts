// Next.js calls register() once when a server process starts, before it serves requests.
// Heavy start-up work (migrations, first-run setup, workers) belongs here, never on the first request.
// The import sits inside the NEXT_RUNTIME check so the Edge build (middleware.ts) leaves the server out.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs" && process.env.NEXT_PHASE !== "phase-production-build") {
    const { startServer, installRequestGate } = await import("./server/startup.ts");
    try {
      installRequestGate();
      await startServer();
    } catch (error) {
      console.error("Reprise could not start:", error);
      process.exit(1);
    }
  }
}
