import { unknownApiRoute } from "@/server/http/methods.http.ts";

// Every path under /api that no other route matches answers the JSON 404, never Next.js's HTML page.
export const dynamic = "force-dynamic";
export {
  unknownApiRoute as GET,
  unknownApiRoute as POST,
  unknownApiRoute as PUT,
  unknownApiRoute as PATCH,
  unknownApiRoute as DELETE,
  unknownApiRoute as OPTIONS,
};
