import { handleTrpc } from "@/server/trpc/trpc.http.ts";

export const dynamic = "force-dynamic";
export { handleTrpc as GET, handleTrpc as POST };
