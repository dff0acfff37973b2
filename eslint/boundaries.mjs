// Local ESLint rules that keep the layering of docs/architecture.md "Layers":
//   reprise/layers       a file imports only its own layer or the layers below it
//   reprise/no-feature-cycles  feature folders never import each other in a cycle
//   reprise/feature-order      a feature imports only features listed after it in docs/architecture.md
//                              "Feature order" (the table is read from the document, so the two cannot drift)
//   reprise/sdk-isolation      the TypeScript SDK imports nothing from the server or the console
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const serverDir = path.join(root, "server");

// Bottom to top. A server/ folder not named here is a feature (new folders fit without editing this list).
const PLATFORM = { generated: 0, db: 0, shared: 1, jobs: 2, auth: 3, http: 4 };
const CORE_FILES = new Set(["env.ts", "errors.ts", "ids.ts", "logger.ts", "db.ts"]);
const SURFACES = new Set(["trpc", "mcp"]);
const SURFACE_FILES = new Set(["startup.ts", "workers.ts"]);
const FEATURE = 5;
const SURFACE = 6;
const APP = 7;

/** { layer, folder } of a file, or undefined outside app/ and server/. */
function place(file) {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] === "app") return { layer: APP, folder: "app" };
  if (rel[0] !== "server") return undefined;
  if (rel.length === 2) {
    if (CORE_FILES.has(rel[1])) return { layer: 0, folder: "(core)" };
    if (SURFACE_FILES.has(rel[1])) return { layer: SURFACE, folder: rel[1] };
    return { layer: 0, folder: "(core)" };
  }
  const folder = rel[1];
  if (folder in PLATFORM) return { layer: PLATFORM[folder], folder };
  if (SURFACES.has(folder)) return { layer: SURFACE, folder };
  return { layer: FEATURE, folder };
}

const LAYER_NAMES = ["core", "shared", "jobs", "auth", "http", "feature", "surface", "app"];

function resolveImport(fromFile, spec) {
  if (spec.startsWith("@/")) return path.join(root, spec.slice(2));
  if (spec.startsWith(".")) return path.resolve(path.dirname(fromFile), spec);
  return undefined;
}

// Tests and test helpers may reach anything (they drive the layers from outside).
const isTestFile = (file) => /\.(int\.)?test\.tsx?$|\.child\.ts$|\/testing\//.test(file);

function importSources(node) {
  return node.source && typeof node.source.value === "string" ? [node.source] : [];
}

const layers = {
  meta: { type: "problem", docs: { description: "imports follow the layers of docs/architecture.md" }, schema: [] },
  create(context) {
    const file = context.filename;
    const from = place(file);
    if (!from || isTestFile(file)) return {};
    const check = (source) => {
      const target = resolveImport(file, source.value);
      if (!target) return;
      const to = place(target);
      if (!to || to.folder === from.folder) return;
      if (from.layer === APP) {
        // app/ imports *.http.ts, the tRPC root (types), env.ts and the console's own components.
        const rel = path.relative(root, target);
        if (/\.http\.ts$/.test(rel) || rel.startsWith("server/trpc/") || rel === "server/env.ts" || rel === "server/startup.ts") return;
        context.report({ node: source, message: `app/ imports only *.http.ts, the tRPC root and env.ts, not ${rel} (docs/architecture.md "Layers").` });
        return;
      }
      if (to.layer > from.layer) {
        context.report({
          node: source,
          message: `${from.folder} (${LAYER_NAMES[from.layer]}) must not import ${to.folder} (${LAYER_NAMES[to.layer]}), a layer above it (docs/architecture.md "Layers").`,
        });
      }
    };
    return {
      ImportDeclaration: (n) => importSources(n).forEach(check),
      ExportNamedDeclaration: (n) => importSources(n).forEach(check),
      ExportAllDeclaration: (n) => importSources(n).forEach(check),
      ImportExpression: (n) => n.source.type === "Literal" && check(n.source),
    };
  },
};

// The feature-folder graph, built once per lint run from every non-test server file.
let graph;
function featureGraph() {
  if (graph) return graph;
  graph = new Map();
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "generated") walk(p);
      } else if (/\.tsx?$/.test(e.name) && !isTestFile(p)) {
        const from = place(p);
        if (from?.layer !== FEATURE) continue;
        const text = fs.readFileSync(p, "utf8");
        for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
          const target = resolveImport(p, m[1]);
          const to = target && place(target);
          if (!to || to.layer !== FEATURE || to.folder === from.folder) continue;
          if (!graph.has(from.folder)) graph.set(from.folder, new Set());
          graph.get(from.folder).add(to.folder);
        }
      }
    }
  };
  walk(serverDir);
  return graph;
}

/** A path from `start` back to `goal` through the feature graph, or undefined. */
function pathBack(start, goal) {
  const g = featureGraph();
  const seen = new Set();
  const stack = [[start, [start]]];
  while (stack.length) {
    const [node, trail] = stack.pop();
    if (node === goal) return trail;
    if (seen.has(node)) continue;
    seen.add(node);
    for (const next of g.get(node) ?? []) stack.push([next, [...trail, next]]);
  }
  return undefined;
}

const noFeatureCycles = {
  meta: { type: "problem", docs: { description: "feature folders import each other in one acyclic order" }, schema: [] },
  create(context) {
    const file = context.filename;
    const from = place(file);
    if (!from || from.layer !== FEATURE || isTestFile(file)) return {};
    const check = (source) => {
      const target = resolveImport(file, source.value);
      const to = target && place(target);
      if (!to || to.layer !== FEATURE || to.folder === from.folder) return;
      const back = pathBack(to.folder, from.folder);
      if (back) {
        context.report({
          node: source,
          message: `Import cycle between feature folders: ${[from.folder, ...back].join(" → ")} (docs/architecture.md "Feature order"). Move the shared part down (server/shared/) or the combination up (a router, a tool).`,
        });
      }
    };
    return {
      ImportDeclaration: (n) => importSources(n).forEach(check),
      ExportNamedDeclaration: (n) => importSources(n).forEach(check),
      ExportAllDeclaration: (n) => importSources(n).forEach(check),
    };
  },
};

// The "Feature order" table of docs/architecture.md: each row's first cell names one or more feature folders
// (`replay/`), in order from the top of the stack down; a row's rank is its position.
let order;
function featureOrder() {
  if (order) return order;
  order = new Map();
  const doc = fs.readFileSync(path.join(root, "docs", "architecture.md"), "utf8");
  const section = doc.split(/^### Feature order$/m)[1]?.split(/^#{2,3} /m)[0] ?? "";
  let rank = 0;
  for (const line of section.split("\n")) {
    if (!line.startsWith("|")) continue;
    const first = line.split("|")[1] ?? "";
    const folders = [...first.matchAll(/`([a-z0-9-]+)\/`/g)].map((m) => m[1]);
    if (folders.length === 0) continue;
    for (const f of folders) order.set(f, rank);
    rank += 1;
  }
  return order;
}

const featureOrderRule = {
  meta: { type: "problem", docs: { description: "features import only features listed after them in docs/architecture.md" }, schema: [] },
  create(context) {
    const file = context.filename;
    const from = place(file);
    if (!from || from.layer !== FEATURE || isTestFile(file)) return {};
    const ranks = featureOrder();
    const check = (source) => {
      const target = resolveImport(file, source.value);
      const to = target && place(target);
      if (!to || to.layer !== FEATURE || to.folder === from.folder) return;
      const missing = [from.folder, to.folder].filter((f) => !ranks.has(f));
      if (missing.length > 0) {
        context.report({ node: source, message: `Feature folder ${missing.map((f) => `server/${f}/`).join(" and ")} is not in the "Feature order" table of docs/architecture.md: add it there, in its place.` });
        return;
      }
      if (ranks.get(to.folder) <= ranks.get(from.folder)) {
        context.report({
          node: source,
          message: `${from.folder} must not import ${to.folder}: a feature imports only features listed after it (docs/architecture.md "Feature order"). Move the shared part down (server/shared/) or the combination up (a router, a tool).`,
        });
      }
    };
    return {
      ImportDeclaration: (n) => importSources(n).forEach(check),
      ExportNamedDeclaration: (n) => importSources(n).forEach(check),
      ExportAllDeclaration: (n) => importSources(n).forEach(check),
      ImportExpression: (n) => n.source.type === "Literal" && check(n.source),
    };
  },
};

// The SDK is published on its own (sdks/typescript/src/ becomes the package's dist/): an import reaching outside
// its folder would not be in the package a user installs.
const sdkRoot = path.join(root, "sdks", "typescript", "src");
const sdkIsolation = {
  meta: { type: "problem", docs: { description: "the TypeScript SDK's source imports nothing outside sdks/typescript/src/" }, schema: [] },
  create(context) {
    const file = context.filename;
    if (!file.startsWith(sdkRoot + path.sep)) return {};
    const check = (source) => {
      const target = resolveImport(file, source.value);
      if (target && !target.startsWith(sdkRoot + path.sep)) {
        context.report({ node: source, message: `The SDK's source imports nothing outside sdks/typescript/src/ (${source.value}): it is published on its own (docs/architecture.md "Features and their docs").` });
      }
    };
    return {
      ImportDeclaration: (n) => importSources(n).forEach(check),
      ExportNamedDeclaration: (n) => importSources(n).forEach(check),
      ExportAllDeclaration: (n) => importSources(n).forEach(check),
      ImportExpression: (n) => n.source.type === "Literal" && check(n.source),
    };
  },
};

export default { rules: { layers, "no-feature-cycles": noFeatureCycles, "feature-order": featureOrderRule, "sdk-isolation": sdkIsolation } };
