import { Suspense } from "react";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { LoadingState } from "@/components/ui/states.tsx";
import { AssertionsBrowser } from "./assertions-browser.tsx";

export const metadata = { title: "Assertions" };

export default function Page() {
  return (
    <>
      <PageHeader title="Assertions" description="What each trace should keep doing when it is replayed, newest first per trace function. Only approved assertions are judged; the state filter shows the others." />
      <Suspense fallback={<LoadingState label="Loading assertions" />}>
        <AssertionsBrowser />
      </Suspense>
    </>
  );
}
