// A tRPC caller for server components (the console layout asks who is signed in before rendering).
// Same context and procedures as the HTTP endpoint; cookies cannot be set from here.
import { headers } from "next/headers";
import { createContext } from "./context.ts";
import { createCaller } from "./root.ts";

export async function getServerCaller() {
  const h = new Headers(await headers());
  // Server components only read (no cookie is set, no mutation runs), so the scheme does not matter here.
  return createCaller(await createContext({ headers: h, url: `http://${h.get("host") ?? "localhost"}/` }));
}
