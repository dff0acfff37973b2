import { Suspense } from "react";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { LoadingState } from "@/components/ui/states.tsx";
import { AuditPage } from "./audit-log.tsx";

export const metadata = { title: "Audit log" };

export default function Page() {
  return (
    <>
      <PageHeader title="Audit log" description="Every change people, keys and agents make (docs/operations.md lists the kinds): who, how, when, and the value before and after. Reads are not logged." />
      <Suspense fallback={<LoadingState label="Loading the audit log" />}>
        <AuditPage />
      </Suspense>
    </>
  );
}
