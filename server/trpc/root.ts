// The console's root router. Feature routers are thin wiring over the same services the REST API calls.
import { apiKeysRouter, usersRouter } from "../sessions/settings/settings.router.ts";
import { sessionRouter } from "../sessions/sessions.router.ts";
import { createCallerFactory, router } from "./init.ts";

export const appRouter = router({
  session: sessionRouter,
  apiKeys: apiKeysRouter,
  users: usersRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
