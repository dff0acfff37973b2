import { PageHeader } from "@/components/ui/page-header.tsx";
import { ComingSoon } from "../_components/coming-soon.tsx";

export const metadata = { title: "Assertions" };

export default function Page() {
  return (
    <>
      <PageHeader title="Assertions" description="What each trace should do the next time it is replayed." />
      <ComingSoon what="Assertions" />
    </>
  );
}
