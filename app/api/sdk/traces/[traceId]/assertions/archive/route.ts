import { postArchiveAssertions } from "@/server/assertions/assertions.http.ts";

export const dynamic = "force-dynamic";
export const POST = postArchiveAssertions;
