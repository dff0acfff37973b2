// Prisma CLI configuration. The "js" engine with a driver adapter keeps `prisma generate` and
// `prisma migrate diff` offline (Prisma 6.19's classic engine downloads a binary). Migrations are
// applied by our own migrator (server/db/migrator.ts), never by `prisma migrate deploy`.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";

export default defineConfig({
  schema: path.join("prisma", "schema.prisma"),
  engine: "js",
  experimental: { adapter: true },
  async adapter() {
    return new PrismaPGlite(new PGlite());
  },
});
