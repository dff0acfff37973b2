import { AsyncLocalStorage } from "node:async_hooks";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../server/generated/prisma/client.ts";
import { migrate } from "../server/db/migrator.ts";
import { createPgliteSql } from "../server/db/sql.ts";

const capture = new AsyncLocalStorage<(tx: unknown) => void>();
const pglite = new PGlite();
await pglite.waitReady;
const sqlDb = createPgliteSql(pglite);
await migrate(sqlDb);
const proxy = new Proxy(pglite, {
  get(target, prop, receiver) {
    if (prop === "transaction") {
      return (cb: (tx: unknown) => Promise<unknown>) => target.transaction((tx) => { capture.getStore()?.(tx); return cb(tx); });
    }
    const v = Reflect.get(target, prop, target);
    return typeof v === "function" ? v.bind(target) : v;
  },
});
const prisma = new PrismaClient({ adapter: new PrismaPGlite(proxy as PGlite) });
let got: any;
const r = await capture.run((tx) => (got = tx), () => prisma.$transaction(async (ptx) => {
  await ptx.organization.create({ data: { id: "00000000-0000-0000-0000-000000000001", name: "x" } as any });
  const rows = await got.query("select count(*)::int as n from organizations");
  return rows.rows;
}));
console.log("in tx via sql:", r, "captured:", !!got);
console.log(await prisma.organization.count());
