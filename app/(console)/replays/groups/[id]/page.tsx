import { GroupView } from "./group-view.tsx";

export const metadata = { title: "Experiment group" };

export default async function GroupPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <GroupView id={id} />;
}
