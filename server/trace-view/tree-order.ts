// A trace's tree in the shared order (server/shared/tree.ts: depth-first, children in start order, a span whose
// parent is absent a root, parent loops broken at their earliest span), from its spans already in start order,
// in flat arrays: building TreeNode objects, a Map and a sort of 100,000 children took the server's thread as
// long as the database took to read them (bench/README.md, "The 100,000-span trace's page").

/** Depth-first positions and what the console needs to page, collapse and jump, by position. */
export interface TTreeOrder {
  ids: string[];
  depth: Int32Array;
  /** The parent's position, -1 for a root. */
  parent: Int32Array;
  /** How many spans each subtree holds below its root. */
  descendants: Int32Array;
  childCount: Int32Array;
  position: Map<string, number>;
}

/** `rows` are [id, parent id] in start order (compareStart's: start, then arrival, then id). */
export function toTreeOrder(rows: ReadonlyArray<readonly [string, string | null]>): TTreeOrder {
  const n = rows.length;
  const rowOf = new Map<string, number>();
  for (let i = 0; i < n; i++) rowOf.set(rows[i]![0], i);
  // Each row's parent row, -1 for a root (no parent, itself, or one not stored).
  const up = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = rows[i]![1];
    const at = p === null ? undefined : rowOf.get(p);
    up[i] = at === undefined || at === i ? -1 : at;
  }
  // Children in row order (start order), as one array cut per parent.
  const count = new Int32Array(n);
  for (let i = 0; i < n; i++) if (up[i]! >= 0) count[up[i]!]++;
  const first = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) first[i + 1] = first[i]! + count[i]!;
  const children = new Int32Array(first[n]!);
  const filled = first.slice(0, n);
  for (let i = 0; i < n; i++) if (up[i]! >= 0) children[filled[up[i]!]!++] = i;
  // Spans on a parent loop are reachable from no root: the earliest unreached becomes a root (its parent lets it
  // go), until every span is reached, as buildForest does.
  const reached = new Uint8Array(n);
  const stack = new Int32Array(n);
  const isRoot = new Uint8Array(n);
  const reach = (from: number) => {
    let top = 0;
    stack[top++] = from;
    reached[from] = 1;
    while (top > 0) {
      const at = stack[--top]!;
      for (let c = first[at]!; c < first[at + 1]!; c++) {
        const child = children[c]!;
        if (!reached[child] && !isRoot[child]) {
          reached[child] = 1;
          stack[top++] = child;
        }
      }
    }
  };
  for (let i = 0; i < n; i++) if (up[i] === -1) isRoot[i] = 1;
  for (let i = 0; i < n; i++) if (isRoot[i]) reach(i);
  for (let i = 0; i < n; i++) {
    if (reached[i]) continue;
    isRoot[i] = 1;
    reach(i);
  }
  // Depth-first from the roots in start order, children pushed last-first so the earliest is taken first; a
  // child that became a root waits for its own turn.
  const ids: string[] = new Array<string>(n);
  const depth = new Int32Array(n);
  const parent = new Int32Array(n);
  const childCount = new Int32Array(n);
  const depthOf = new Int32Array(n);
  const parentAt = new Int32Array(n);
  let next = 0;
  for (let r = 0; r < n; r++) {
    if (!isRoot[r]) continue;
    let top = 0;
    stack[top++] = r;
    parentAt[r] = -1;
    while (top > 0) {
      const at = stack[--top]!;
      const pos = next++;
      ids[pos] = rows[at]![0];
      depth[pos] = depthOf[at]!;
      parent[pos] = parentAt[at]!;
      for (let c = first[at + 1]! - 1; c >= first[at]!; c--) {
        const child = children[c]!;
        if (isRoot[child]) continue;
        childCount[pos]++;
        depthOf[child] = depthOf[at]! + 1;
        parentAt[child] = pos;
        stack[top++] = child;
      }
    }
  }
  // Children come after their parent: one pass from the end adds each subtree to its parent's.
  const descendants = new Int32Array(n);
  for (let i = n - 1; i >= 0; i--) if (parent[i]! >= 0) descendants[parent[i]!] += descendants[i]! + 1;
  const position = new Map<string, number>();
  for (let i = 0; i < n; i++) position.set(ids[i]!, i);
  return { ids, depth, parent, descendants, childCount, position };
}
