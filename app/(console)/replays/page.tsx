import { PageHeader } from "@/components/ui/page-header.tsx";
import { ReplaysList } from "./replays-list.tsx";

export const metadata = { title: "Replays" };

export default function Page() {
  return (
    <>
      <PageHeader title="Replays" description="Experiments that replayed recorded traces through new code, newest first." />
      <ReplaysList />
    </>
  );
}
