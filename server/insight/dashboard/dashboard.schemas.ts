// Inputs and the answer of the dashboard (docs/dashboard.md).
import { z } from "zod";
import { ZInstant, zText } from "../../shared/schemas.ts";

export const ZDashboardInput = z
  .object({
    from: ZInstant,
    to: ZInstant,
    traceFunctionKey: zText(1000).optional(),
  })
  .refine((r) => r.from < r.to, { message: "from must be before to", path: ["to"] })
  .refine((r) => r.to.getTime() - r.from.getTime() <= 400 * 86_400_000, { message: "the range is at most 400 days", path: ["to"] });
export type TDashboardInput = z.output<typeof ZDashboardInput>;

/** The charts the dashboard draws, each one statement (the bench times each). */
export const DASHBOARD_CHARTS = ["volume", "functions", "usage", "graders", "scores", "verdicts", "replays"] as const;
export type TDashboardChart = (typeof DASHBOARD_CHARTS)[number];
