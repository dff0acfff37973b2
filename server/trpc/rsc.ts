// A tRPC caller for server components (the console layout asks who is signed in before rendering).
// Same context and procedures as the HTTP endpoint; cookies cannot be set from here.
import { headers } from "next/headers";
import { createContext } from "./context.ts";
import { createCaller } from "./root.ts";

export async function getServerCaller() {
  const h = new Headers(await headers());
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost";
  return createCaller(await createContext({ headers: h, url: `http://${host}/` }));
}
