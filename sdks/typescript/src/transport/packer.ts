/** Limits of one request. */
export interface PackLimits {
  maxCarriers: number;
  maxBytes: number;
  /** Exact request size for `count` carriers totalling `carrierBytes`. */
  requestSize(carrierBytes: number, count: number): number;
}

/**
 * Greedily packs carriers, in order, into requests bounded by carrier count and exact encoded size (docs/sdk-transport.md,
 * rule 3). Returns groups of indexes. A carrier that alone exceeds the limit gets its own group.
 */
export function packCarriers(sizes: readonly number[], limits: PackLimits): number[][] {
  const groups: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  sizes.forEach((size, index) => {
    const fits =
      current.length < limits.maxCarriers && limits.requestSize(bytes + size, current.length + 1) <= limits.maxBytes;
    if (!fits && current.length > 0) {
      groups.push(current);
      current = [];
      bytes = 0;
    }
    current.push(index);
    bytes += size;
  });
  if (current.length > 0) groups.push(current);
  return groups;
}
