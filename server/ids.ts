// Identifiers. Canonical ids are UUIDs; SDK ids that are not UUIDs map to a UUIDv5 of
// (organization, source id) so retries stay idempotent and tenants never collide (docs/api.md, "Common rules": Ids).
import { createHash, randomUUID } from "node:crypto";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Fixed namespace for Reprise's UUIDv5 ids. */
const REPRISE_NAMESPACE = "6f1b2c1e-8f3a-4e55-9c1e-2a7d3b9e4c10";

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

export function newId(): string {
  return randomUUID();
}

/** RFC 4122 version-5 UUID of `name` in `namespace`. */
export function uuidV5(name: string, namespace: string = REPRISE_NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ""), "hex");
  const hash = createHash("sha1").update(ns).update(name, "utf8").digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The canonical id for an SDK-side trace or span id: the id itself (lowercased) when it is a UUID,
 * else a UUIDv5 of the organization and the source id.
 */
export function canonicalId(organizationId: string, sourceId: string): string {
  return isUuid(sourceId) ? sourceId.toLowerCase() : uuidV5(`${organizationId}:${sourceId}`);
}
