/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded by Node at run time, never bundled: PGlite loads WASM and data files, Prisma's runtime and
  // protobufjs use dynamic requires (DEVELOPERS.md, "Facts about this environment").
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/client",
    "@prisma/adapter-pg",
    "@prisma/driver-adapter-utils",
    "pg",
    "pg-boss",
    "protobufjs",
  ],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  eslint: { ignoreDuringBuilds: true },
  // `next build` type-checks the app only; tests, e2e and benches are checked by `npm run typecheck`, so
  // a type slip in a test file never stops the server from building.
  typescript: { tsconfigPath: "tsconfig.build.json" },
};

export default nextConfig;
