// ESLint (flat config): typescript-eslint's parser and recommended checks that the code already meets, and
// the local rules that keep the layers and the feature order of docs/architecture.md.
import tseslint from "typescript-eslint";
import boundaries from "./eslint/boundaries.mjs";

export default tseslint.config(
  { ignores: ["node_modules/**", ".next/**", "server/generated/**", "proto/**/*.generated.ts", "sdks/*/dist/**", "sdks/python/**", "sdks/go/**", "sdks/ruby/**", "sdks/conformance/**", "examples/**", "bench/**", "test-results/**", "playwright-report/**"] },
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parser: tseslint.parser },
    plugins: { reprise: boundaries, "@typescript-eslint": tseslint.plugin },
    rules: {
      "reprise/layers": "error",
      "reprise/no-feature-cycles": "error",
      "reprise/feature-order": "error",
      "reprise/sdk-isolation": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
      // One transaction helper (docs/architecture.md "Database access"): db.transaction, never Prisma's own.
      "no-restricted-syntax": [
        "error",
        { selector: "MemberExpression[property.name='$transaction']", message: "Use db.transaction (docs/architecture.md \"Database access\")." },
        { selector: "MemberExpression[property.name=/^\\$(queryRaw|executeRaw)(Unsafe)?$/]", message: "Raw SQL goes through db.sql in a *.queries.ts (docs/architecture.md \"Database access\")." },
      ],
    },
  },
  {
    // Console links prefetch on intent, not on sight (components/ui/link.tsx says why).
    files: ["app/**/*.tsx", "components/**/*.tsx"],
    ignores: ["components/ui/link.tsx"],
    rules: { "no-restricted-imports": ["error", { paths: [{ name: "next/link", message: "Use Link from @/components/ui/link.tsx: it prefetches on hover or focus, not on sight." }] }] },
  },
  {
    // Only *.queries.ts (and the database, job and SQL-only ingestion layers) touch the database.
    files: ["server/**/*.ts"],
    ignores: ["server/**/*.queries.ts", "server/db/**", "server/jobs/**", "server/**/*.test.ts", "server/**/testing/**", "server/**/*.child.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "MemberExpression[property.name='$transaction']", message: "Use db.transaction (docs/architecture.md \"Database access\")." },
        { selector: "MemberExpression[object.property.name='prisma']", message: "Only *.queries.ts call Prisma (docs/architecture.md \"Database access\")." },
        { selector: "CallExpression[callee.property.name=/^(query|exec)$/][callee.object.property.name='sql']", message: "Only *.queries.ts run SQL (docs/architecture.md \"Database access\")." },
      ],
    },
  },
  {
    // The transaction helper itself is built on Prisma's.
    files: ["server/db/client.ts"],
    rules: { "no-restricted-syntax": "off" },
  },
);
