// The lint rules that keep docs/architecture.md's layers and feature order, run on fixture files through
// ESLint's own API with the project's configuration: a wrong-way import must fail lint, a right-way one pass.
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root });

/** The rule ids ESLint reports for `code` as if it were the file at `file` (relative to the root). */
async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe("feature order (docs/architecture.md \"Feature order\")", () => {
  it("fails a feature importing a feature listed before it", async () => {
    const ids = await ruleIds("server/ingest/fixture.ts", `import { x } from "../graders/graders.service.ts";\nexport const y = x;\n`);
    expect(ids).toContain("reprise/feature-order");
  });

  it("fails a feature importing one of the same row", async () => {
    const ids = await ruleIds("server/datasets/fixture.ts", `import { x } from "@/server/functions/functions.service.ts";\nexport const y = x;\n`);
    expect(ids).toContain("reprise/feature-order");
  });

  it("fails a feature folder the table does not name", async () => {
    const ids = await ruleIds("server/unlisted-feature/fixture.ts", `import { x } from "../traces/traces.service.ts";\nexport const y = x;\n`);
    expect(ids).toContain("reprise/feature-order");
  });

  it("passes a feature importing one listed after it", async () => {
    const ids = await ruleIds("server/replay/fixture.ts", `import { x } from "../traces/traces.service.ts";\nexport const y = x;\n`);
    expect(ids).toEqual([]);
  });

  it("leaves tests free to reach any feature", async () => {
    const ids = await ruleIds("server/ingest/fixture.int.test.ts", `import { x } from "../graders/graders.service.ts";\nexport const y = x;\n`);
    expect(ids).toEqual([]);
  });
});

describe("layers and the SDK's isolation", () => {
  it("fails a feature importing a surface", async () => {
    const ids = await ruleIds("server/traces/fixture.ts", `import { x } from "../mcp/server.ts";\nexport const y = x;\n`);
    expect(ids).toContain("reprise/layers");
  });

  it("fails the SDK's source importing the server", async () => {
    const ids = await ruleIds("sdks/typescript/src/fixture.ts", `import { x } from "../../../server/ids.ts";\nexport const y = x;\n`);
    expect(ids).toContain("reprise/sdk-isolation");
  });

  it("lints the SDK's source with the project's checks", async () => {
    const ids = await ruleIds("sdks/typescript/src/fixture.ts", `const unused = 1;\nexport {};\n`);
    expect(ids).toContain("@typescript-eslint/no-unused-vars");
  });
});
