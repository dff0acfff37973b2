// Which sim plan nodes are locked (docs/api/sim-plan.md, "GET /api/sdk/sim-plan"): content capture of such a node can
// never be turned off.
import type { TLockReason } from "./sim-plan.schemas.ts";

/** Names the service assigns itself (carrier name fallbacks such as `reprise.external_span`). */
export function isServiceAssignedName(name: string): boolean {
  return name.startsWith("reprise.") || name.startsWith("bitfab.");
}


const MESSAGES: Record<TLockReason, string> = {
  root: "it is the root span of its traces, which is always recorded in full",
  framework: "it is recorded by a framework integration, which the sim plan does not govern",
  imported: "it was imported from another platform",
  service_name: "its name is assigned by the service, not by the application",
};

export function lockReasonsOf(node: { name: string; root: boolean; framework: boolean; imported: boolean }): TLockReason[] {
  const reasons: TLockReason[] = [];
  if (node.root) reasons.push("root");
  if (node.framework) reasons.push("framework");
  if (node.imported) reasons.push("imported");
  if (isServiceAssignedName(node.name)) reasons.push("service_name");
  return reasons;
}

export function describeLock(reasons: TLockReason[]): string {
  return `Content capture of this node is locked: ${reasons.map((r) => MESSAGES[r]).join("; ")}.`;
}
