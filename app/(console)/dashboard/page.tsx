import { Suspense } from "react";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { LoadingState } from "@/components/ui/states.tsx";
import { Dashboard } from "./dashboard.tsx";

export const metadata = { title: "Dashboard" };

export default function DashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard" description="Volume, errors, latency, cost and pass rates over a time range. Every point and bar opens the traces behind it." />
      <Suspense fallback={<LoadingState label="Loading the dashboard" />}>
        <Dashboard />
      </Suspense>
    </>
  );
}
