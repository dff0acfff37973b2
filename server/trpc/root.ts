// The console's root router. Feature routers are thin wiring over the same services the REST API calls.
import { apiKeysRouter, usersRouter } from "../sessions/settings/settings.router.ts";
import { sessionRouter } from "../sessions/sessions.router.ts";
import { datasetsRouter } from "../datasets/datasets.router.ts";
import { gradersRouter } from "../graders/graders.router.ts";
import { labelsRouter } from "../labels/labels.router.ts";
import { simPlanRouter } from "../sim-plan/sim-plan.router.ts";
import { tracesRouter } from "../traces/traces.router.ts";
import { assertionsRouter } from "../assertions/assertions.router.ts";
import { replaysRouter } from "../replay/experiments/replays.router.ts";
import { createCallerFactory, router } from "./init.ts";

export const appRouter = router({
  session: sessionRouter,
  apiKeys: apiKeysRouter,
  users: usersRouter,
  traces: tracesRouter,
  labels: labelsRouter,
  simPlan: simPlanRouter,
  graders: gradersRouter,
  datasets: datasetsRouter,
  assertions: assertionsRouter,
  replays: replaysRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
