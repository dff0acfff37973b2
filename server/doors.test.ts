// Each door is declared once (server/doors.ts) and served by one path: the server entry. A route.ts at a door's
// path would be a second way in, taken by whatever runs Next.js without the entry, so it fails here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DOORS, findDoor } from "./doors.ts";

const appDir = path.resolve(__dirname, "..", "app");

/** The URL path of every app/**\/route.ts (route groups left out). */
function routePaths(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/^route\.(ts|tsx|js)$/.test(entry.name)) {
        out.push(`/${path.relative(appDir, dir).split(path.sep).filter((s) => s && !/^\(.*\)$/.test(s)).join("/")}`);
      }
    }
  };
  walk(appDir);
  return out;
}

describe("the doors served before Next.js", () => {
  it("are each declared once, with methods built by defineRoute and a body limit", () => {
    const paths = DOORS.map((d) => d.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const door of DOORS) {
      expect(Object.keys(door.methods).length, door.path).toBeGreaterThan(0);
      for (const route of Object.values(door.methods)) expect(route.spec, door.path).toBeDefined();
      expect(door.bodyLimit, door.path).toBeGreaterThan(0);
    }
  });

  it("have no route.ts: no path is served two ways", () => {
    const routes = routePaths();
    expect(routes.length).toBeGreaterThan(10);
    for (const door of DOORS) expect(routes, door.path).not.toContain(door.path);
  });

  it("are found by path, whatever the query", () => {
    expect(findDoor("/v1/traces")?.path).toBe("/v1/traces");
    expect(findDoor("/api/otel/v1/logs?x=1")?.path).toBe("/api/otel/v1/logs");
    expect(findDoor("/v1/traces/")).toBeUndefined();
    expect(findDoor("/api/sdk/externalSpans")).toBeUndefined();
  });
});
