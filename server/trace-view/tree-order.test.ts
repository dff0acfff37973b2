// toTreeOrder gives the shared tree order (buildForest's) from rows in start order, on random forests with equal
// start times, missing starts, absent parents, self-parents and parent loops.
import { describe, expect, it } from "vitest";
import { buildForest, compareStart, type TreeNode } from "../shared/tree.ts";
import { toTreeOrder } from "./tree-order.ts";

interface Row { id: string; parentSpanId: string | null; startedAt: number | null; createdAt: number }

/** A deterministic pseudo-random sequence (mulberry32), so a failure repeats. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function forestOf(seed: number, n: number): Row[] {
  const r = random(seed);
  const ids = Array.from({ length: n }, (_, i) => `${Math.floor(r() * 1e8).toString(16).padStart(8, "0")}-${i}`);
  return ids.map((id, i) => {
    const pick = r();
    const parentSpanId = pick < 0.1 ? null : pick < 0.13 ? `absent-${i}` : pick < 0.15 ? id : ids[Math.floor(r() * n)]!;
    return { id, parentSpanId, startedAt: r() < 0.1 ? null : Math.floor(r() * 20), createdAt: Math.floor(r() * 5) };
  });
}

/** buildForest's depth-first order with each row's depth, child count and subtree size. */
function expected(rows: Row[]) {
  const out: Array<{ id: string; depth: number; childCount: number; descendants: number }> = [];
  const size = (node: TreeNode<Row>): number => node.children.reduce((sum, c) => sum + 1 + size(c), 0);
  const visit = (node: TreeNode<Row>, depth: number) => {
    out.push({ id: node.row.id, depth, childCount: node.children.length, descendants: size(node) });
    for (const c of node.children) visit(c, depth + 1);
  };
  for (const root of buildForest(rows)) visit(root, 0);
  return out;
}

describe("toTreeOrder", () => {
  it("orders random forests as buildForest does", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rows = forestOf(seed, 1 + (seed % 60));
      const sorted = [...rows].sort(compareStart).map((row) => [row.id, row.parentSpanId] as const);
      const order = toTreeOrder(sorted);
      const got = order.ids.map((id, i) => ({ id, depth: order.depth[i]!, childCount: order.childCount[i]!, descendants: order.descendants[i]! }));
      expect(got, `seed ${seed}`).toEqual(expected(rows));
      order.ids.forEach((id, i) => {
        expect(order.position.get(id)).toBe(i);
        if (order.parent[i]! >= 0) expect(order.depth[order.parent[i]!]).toBe(order.depth[i]! - 1);
      });
    }
  });

  it("orders an agent loop of 100,000 children without recursion", () => {
    const rows: Array<readonly [string, string | null]> = [["root", null]];
    for (let i = 1; i < 100_000; i++) rows.push([`s${i}`, "root"]);
    const order = toTreeOrder(rows);
    expect(order.ids[0]).toBe("root");
    expect(order.descendants[0]).toBe(99_999);
    expect(order.ids[99_999]).toBe("s99999");
  });
});
