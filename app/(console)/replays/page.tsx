import { PageHeader } from "@/components/ui/page-header.tsx";
import { ComingSoon } from "../_components/coming-soon.tsx";

export const metadata = { title: "Replays" };

export default function Page() {
  return (
    <>
      <PageHeader title="Replays" description="Experiments that replayed recorded traces, side by side with the originals." />
      <ComingSoon what="Replays" />
    </>
  );
}
