import { PageHeader } from "@/components/ui/page-header.tsx";
import { ComingSoon } from "../_components/coming-soon.tsx";

export const metadata = { title: "Sim plan" };

export default function Page() {
  return (
    <>
      <PageHeader title="Sim plan" description="Which recorded nodes capture their content." />
      <ComingSoon what="Sim plan" />
    </>
  );
}
