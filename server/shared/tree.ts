// Builds span trees from flat span rows, shared by the span tree endpoint and trace outlines.
// Children are in start order (docs/replay.md, "Span tree": SDKs match mocked calls with per-name call counters, so
// the order must be chronological). Spans left out of a tree (content-off by the sim plan, docs/replay.md,
// "Complete") hand their children to their nearest kept ancestor, so nothing below them
// disappears.

/** A time as a Date, or as milliseconds since the epoch (the trace page's 10,000-span reads make no Dates). */
type TTime = Date | number;

export interface TreeRow {
  id: string;
  parentSpanId: string | null;
  startedAt: TTime | null;
  createdAt: TTime;
}

const ms = (t: TTime) => (typeof t === "number" ? t : t.getTime());

export interface TreeNode<R> {
  row: R;
  children: TreeNode<R>[];
}

/** The forest of kept rows: a row whose parent is absent (not stored yet, or none) is a root. */
export function buildForest<R extends TreeRow>(rows: R[], keep: (row: R) => boolean = () => true): TreeNode<R>[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const nodes = new Map<string, TreeNode<R>>();
  for (const r of rows) if (keep(r)) nodes.set(r.id, { row: r, children: [] });
  const roots: TreeNode<R>[] = [];
  const parentOf = new Map<TreeNode<R>, TreeNode<R>>();
  for (const node of nodes.values()) {
    const parent = nearestKeptAncestor(node.row, byId, nodes);
    if (parent) {
      parent.children.push(node);
      parentOf.set(node, parent);
    } else roots.push(node);
  }
  breakCycles(nodes, roots, parentOf);
  sortDeep(roots);
  return roots;
}

/**
 * Parent ids come from clients, so they can loop (a → b → a). Such spans are reachable from no root; the
 * earliest of them becomes a root, until every span is reachable.
 */
function breakCycles<R extends TreeRow>(nodes: Map<string, TreeNode<R>>, roots: TreeNode<R>[], parentOf: Map<TreeNode<R>, TreeNode<R>>) {
  for (;;) {
    const reached = new Set<TreeNode<R>>();
    const stack = [...roots];
    while (stack.length) {
      const n = stack.pop()!;
      reached.add(n);
      // One at a time: a spread of an agent loop's 100,000 children overflows the call stack.
      for (const child of n.children) stack.push(child);
    }
    const lost = [...nodes.values()].filter((n) => !reached.has(n));
    if (lost.length === 0) return;
    const first = lost.reduce((a, b) => (compareStart(b.row, a.row) < 0 ? b : a));
    const parent = parentOf.get(first)!;
    parent.children.splice(parent.children.indexOf(first), 1);
    parentOf.delete(first);
    roots.push(first);
  }
}

/** The subtree rooted at `rootId` (the root is kept whatever `keep` says), or undefined when absent. */
export function buildSubtree<R extends TreeRow>(rows: R[], rootId: string, keep: (row: R) => boolean = () => true) {
  const forest = buildForest(rows, (r) => r.id === rootId || keep(r));
  return find(forest, rootId);
}

function nearestKeptAncestor<R extends TreeRow>(row: R, byId: Map<string, R>, kept: Map<string, TreeNode<R>>) {
  // Most spans' parent is kept: found without the walk's bookkeeping.
  const direct = row.parentSpanId !== null && row.parentSpanId !== row.id ? kept.get(row.parentSpanId) : undefined;
  if (direct) return direct;
  const seen = new Set<string>([row.id]);
  let parentId = row.parentSpanId;
  while (parentId && !seen.has(parentId)) {
    seen.add(parentId);
    const node = kept.get(parentId);
    if (node) return node;
    parentId = byId.get(parentId)?.parentSpanId ?? null;
  }
  return undefined;
}

function find<R extends TreeRow>(nodes: TreeNode<R>[], id: string): TreeNode<R> | undefined {
  for (const n of nodes) {
    if (n.row.id === id) return n;
    const hit = find(n.children, id);
    if (hit) return hit;
  }
  return undefined;
}

/** Without recursion: a chain of spans can be as deep as the trace is long. */
function sortDeep<R extends TreeRow>(roots: TreeNode<R>[]): void {
  const lists = [roots];
  while (lists.length) {
    const nodes = lists.pop()!;
    nodes.sort((a, b) => compareStart(a.row, b.row));
    for (const n of nodes) if (n.children.length) lists.push(n.children);
  }
}

/** Start time (unknown last), then arrival, then id, so equal timestamps still give a stable order. */
export function compareStart(a: TreeRow, b: TreeRow): number {
  const ta = a.startedAt === null ? Number.POSITIVE_INFINITY : ms(a.startedAt);
  const tb = b.startedAt === null ? Number.POSITIVE_INFINITY : ms(b.startedAt);
  if (ta !== tb) return ta < tb ? -1 : 1;
  const ca = ms(a.createdAt);
  const cb = ms(b.createdAt);
  if (ca !== cb) return ca < cb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
