/**
 * A tiny "agent" instrumented with @reprise/sdk: it records a few traces, then replays them.
 *
 *   REPRISE_API_KEY=rp_... REPRISE_URL=http://localhost:3000 npx tsx examples/replay-quickstart/app.ts
 *
 * The model is a deterministic stand-in, so the example runs offline; swap `callModel` for a real client.
 */
import { Reprise } from "@reprise/sdk";

const reprise = new Reprise(); // REPRISE_API_KEY and REPRISE_URL from the environment

/** A fake LLM call. Token usage and model go into the span's contexts, where Reprise reads them. */
const callModel = reprise.withSpan("callModel", { type: "llm" }, async (prompt: string) => {
  const answer = prompt.includes("2+2") ? "4" : `I would look up: ${prompt}`;
  reprise.getCurrentSpan().addContext({ model: "stand-in-1", inputTokens: prompt.length, outputTokens: answer.length });
  return answer;
});

/** A tool the agent may call. */
const lookUpDate = reprise.withSpan("lookUpDate", { type: "function" }, (asOf: Date) => asOf.toISOString().slice(0, 10));

/** The traced entry point: one trace per call, keyed "answer-question". */
const answerQuestion = reprise.withTrace("answer-question", async (question: string, asOf: Date) => {
  reprise.getCurrentTrace().mergeMetadata({ example: "replay-quickstart" });
  const day = lookUpDate(asOf);
  return { day, answer: await callModel(question) };
});

async function main(): Promise<void> {
  if (!reprise.enabled) {
    console.error("Set REPRISE_API_KEY (and REPRISE_URL if Reprise is not on http://localhost:3000).");
    process.exitCode = 1;
    return;
  }
  const questions = ["What is 2+2?", "Who wrote Hamlet?", "How far is the Moon?"];
  for (const question of questions) console.log(question, "->", await answerQuestion(question, new Date()));

  const delivered = await reprise.flushTraces();
  console.log(`recorded ${questions.length} traces (delivered: ${delivered})`);

  // Replay the most recent traces of this function through the current code.
  const result = await reprise.replay("answer-question", answerQuestion, { limit: questions.length, name: "quickstart" });
  console.log(`replay ${result.testRunId}: ${result.items.length} item(s), ${result.traceCount} persisted`);
  if (result.url) console.log(`  ${result.url}`);
  for (const item of result.items) {
    const before = item.original.tokens?.total ?? "?";
    const after = item.tokens?.total ?? "?";
    console.log(`  ${item.originalTraceId} -> ${item.serverTraceId}: ${item.error ?? JSON.stringify(item.output)} (tokens ${before} -> ${after}, spans ${item.outline?.spanCount ?? "?"})`);
  }
  await reprise.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
