import { PageHeader } from "@/components/ui/page-header.tsx";
import { ComingSoon } from "../_components/coming-soon.tsx";

export const metadata = { title: "Datasets" };

export default function Page() {
  return (
    <>
      <PageHeader title="Datasets" description="Named sets of traces per trace function, with graders to re-run." />
      <ComingSoon what="Datasets" />
    </>
  );
}
