import { Suspense } from "react";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { LoadingState } from "@/components/ui/states.tsx";
import { TracesList } from "./traces-list.tsx";

export const metadata = { title: "Traces" };

export default function TracesPage() {
  return (
    <>
      <PageHeader title="Traces" description="Recorded executions of your app, newest first. Open one to inspect its spans and record a verdict." />
      <Suspense fallback={<LoadingState label="Loading traces" />}>
        <TracesList />
      </Suspense>
    </>
  );
}
