// The console's root router. Feature routers are thin wiring over the same services the REST API calls.
import { apiKeysRouter, usersRouter } from "./routers/settings.router.ts";
import { sessionRouter } from "./routers/sessions.router.ts";
import { invitationRouter, passwordResetRouter, peopleRouter } from "./routers/people.router.ts";
import { ssoRouter } from "./routers/sso.router.ts";
import { datasetsRouter } from "./routers/datasets.router.ts";
import { gradersRouter } from "./routers/graders.router.ts";
import { graderBackfillsRouter } from "./routers/grader-backfills.router.ts";
import { labelsRouter } from "./routers/labels.router.ts";
import { simPlanRouter } from "./routers/sim-plan.router.ts";
import { tracesRouter } from "./routers/traces.router.ts";
import { assertionsRouter } from "./routers/assertions.router.ts";
import { replaysRouter } from "./routers/replays.router.ts";
import { setupRouter } from "./routers/setup.router.ts";
import { reviewRouter } from "./routers/review.router.ts";
import { redactionRouter } from "./routers/redaction.router.ts";
import { transferRouter } from "./routers/transfer.router.ts";
import { insightRouter } from "./routers/insight.router.ts";
import { lifecycleRouter } from "./routers/lifecycle.router.ts";
import { auditRouter } from "./routers/audit.router.ts";
import { alertsRouter } from "./routers/alerts.router.ts";
import { createCallerFactory, router } from "./init.ts";

export const appRouter = router({
  session: sessionRouter,
  apiKeys: apiKeysRouter,
  users: usersRouter,
  people: peopleRouter,
  invitation: invitationRouter,
  passwordReset: passwordResetRouter,
  sso: ssoRouter,
  traces: tracesRouter,
  labels: labelsRouter,
  simPlan: simPlanRouter,
  graders: gradersRouter,
  graderBackfills: graderBackfillsRouter,
  datasets: datasetsRouter,
  assertions: assertionsRouter,
  replays: replaysRouter,
  setup: setupRouter,
  review: reviewRouter,
  redaction: redactionRouter,
  transfer: transferRouter,
  insight: insightRouter,
  lifecycle: lifecycleRouter,
  audit: auditRouter,
  alerts: alertsRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
