import { Suspense } from "react";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { LoadingState } from "@/components/ui/states.tsx";
import { LabelQueue } from "./label-queue.tsx";

export const metadata = { title: "Labelling queue" };

export default function LabelQueuePage() {
  return (
    <>
      <PageHeader title="Labelling queue" description="Every trace of the list's filter, one at a time: one key records a verdict and moves on." />
      <Suspense fallback={<LoadingState label="Loading the queue" />}>
        <LabelQueue />
      </Suspense>
    </>
  );
}
