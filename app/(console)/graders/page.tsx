import { PageHeader } from "@/components/ui/page-header.tsx";
import { ComingSoon } from "../_components/coming-soon.tsx";

export const metadata = { title: "Graders" };

export default function Page() {
  return (
    <>
      <PageHeader title="Graders" description="Rule and LLM-judge graders that label traces automatically." />
      <ComingSoon what="Graders" />
    </>
  );
}
