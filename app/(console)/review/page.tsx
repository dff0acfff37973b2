import { PageHeader } from "@/components/ui/page-header.tsx";
import { ReviewQueue } from "./review-queue.tsx";

export const metadata = { title: "Review" };

export default function Page() {
  return (
    <>
      <PageHeader title="Review" description="Assertions agents proposed, awaiting a person's decision. Only approved assertions are judged on replay." />
      <ReviewQueue />
    </>
  );
}
