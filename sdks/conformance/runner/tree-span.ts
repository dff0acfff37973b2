/**
 * A span of the `trace` command's tree (PROTOCOL.md, A span), as the runner sends it and the TypeScript driver
 * reads it. `Type` narrows `type` for a driver that knows its SDK's span types.
 */
export interface TreeSpan<Type extends string = string> {
  name: string;
  type?: Type;
  input?: unknown;
  output?: unknown;
  contexts?: Array<Record<string, unknown>>;
  metadata?: Record<string, unknown>;
  traceName?: string;
  sessionId?: string;
  error?: string;
  sleepMs?: number;
  mockOnReplay?: boolean;
  drop?: boolean;
  background?: boolean;
  children?: TreeSpan<Type>[];
}
