import { getAssertions } from "@/server/assertions/assertions.http.ts";

export const dynamic = "force-dynamic";
export const GET = getAssertions;
