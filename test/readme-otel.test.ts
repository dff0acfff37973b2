// The README sends an OpenTelemetry Collector to the native door (the server's base URL), not to the
// carrier door (/api/sdk/otel), which keeps only the Reprise SDKs' carrier spans (docs/otel.md).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const readme = readFileSync(path.join(path.resolve(__dirname, ".."), "README" + ".md"), "utf8");

describe("README's OpenTelemetry Collector setup", () => {
  it("points the Collector's otlphttp endpoint at the native door", () => {
    const paragraph = readme.split(/\n\n/).find((p) => /OpenTelemetry Collector/.test(p) && /otlphttp/.test(p));
    expect(paragraph).toBeDefined();
    expect(paragraph).toMatch(/endpoint\s+`http:\/\/localhost:3000`/);
    expect(paragraph).not.toMatch(/endpoint\s+`[^`]*\/api\/sdk\/otel`/);
  });
});
