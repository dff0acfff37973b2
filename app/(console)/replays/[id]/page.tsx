import { ExperimentView } from "./experiment-view.tsx";

export const metadata = { title: "Replay" };

// The SDKs print this address for a run (experimentUrl: /replays/<id>, docs/api/replay.md).
export default async function ReplayPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ExperimentView id={id} />;
}
