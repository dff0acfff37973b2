import { PageHeader } from "@/components/ui/page-header.tsx";
import { GradersList } from "./graders-list.tsx";

export const metadata = { title: "Graders" };

export default function GradersPage() {
  return (
    <>
      <PageHeader title="Graders" description="Rule and LLM-judge graders label traces automatically: live ones when a trace completes, all of a dataset's on a re-run." />
      <GradersList />
    </>
  );
}
