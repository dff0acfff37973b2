import { decodeValue } from "../encoding/value-codec.js";

/** A node of `GET /api/sdk/replay/spanTree/{id}`: the original trace with recorded outputs, children in start order. */
export interface SpanTreeNode {
  spanName?: string;
  output?: unknown;
  outputMeta?: unknown;
  children?: SpanTreeNode[];
}

/**
 * The recorded outputs of one original trace, for spans marked `mockOnReplay`. The n-th span named X of the
 * replayed trace is served the output of the n-th span named X of the original (in start order), so repeated
 * calls line up with their recordings.
 */
export class ReplayMocks {
  private readonly recorded = new Map<string, SpanTreeNode[]>();
  private readonly seen = new Map<string, number>();

  constructor(root: SpanTreeNode | undefined) {
    const walk = (node: SpanTreeNode) => {
      if (typeof node.spanName === "string") {
        const list = this.recorded.get(node.spanName) ?? [];
        list.push(node);
        this.recorded.set(node.spanName, list);
      }
      for (const child of node.children ?? []) walk(child);
    };
    if (root) walk(root);
  }

  /**
   * Counts one more span named `name` in the replayed trace (every span counts, mocked or not) and returns the
   * original's output for that occurrence, when the original had one.
   */
  next(name: string): { value: unknown } | undefined {
    const index = this.seen.get(name) ?? 0;
    this.seen.set(name, index + 1);
    const node = this.recorded.get(name)?.[index];
    if (node === undefined || !("output" in node)) return undefined;
    return { value: decodeValue(node.output, node.outputMeta) };
  }
}
