// What a convention mapper reads from one span (docs/otel.md has the table).
import type { TSpanType } from "../../write/span-fields.ts";

export const CONVENTIONS = ["otel-genai", "openinference", "openllmetry", "vercel-ai", "otel"] as const;
export type TConvention = (typeof CONVENTIONS)[number];

export interface TTokens {
  input: number | null;
  output: number | null;
  cached: number | null;
  total: number | null;
  /** Reasoning tokens, a part of output (docs/cost.md); absent where the convention has none. */
  reasoning?: number | null;
}

export interface TConventionFields {
  type: TSpanType;
  model: string | null;
  /** Counted tokens: only model calls count, so a parent's roll-up is not added twice. */
  tokens: TTokens | null;
  /** undefined: the span says nothing about it. */
  input?: unknown;
  output?: unknown;
  systemInstructions?: unknown;
  tools?: unknown;
  sessionId?: string | null;
}
