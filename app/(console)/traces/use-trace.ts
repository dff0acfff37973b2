"use client";
// One trace for the trace page and the labelling queue (traces.get), with its waterfall's spans read from
// the JSON text the server sends them as (server/trpc/json-text.ts). The text is parsed once per answer.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react.tsx";
import type { RouterOutputs } from "@/components/trpc/types.ts";
import { fromJsonText } from "@/server/trpc/json-text.ts";

const readTrace = (sent: RouterOutputs["traces"]["get"]) => ({ ...sent, waterfall: { ...sent.waterfall, spans: fromJsonText(sent.waterfall.spans) } });

export type TTraceData = ReturnType<typeof readTrace>;

export function useTrace(id: string) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.traces.get.queryOptions({ id }), select: readTrace });
}
