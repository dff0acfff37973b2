import { TraceView } from "./trace-view.tsx";

export const metadata = { title: "Trace" };

export default async function TracePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <TraceView id={id} />;
}
