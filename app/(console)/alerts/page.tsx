import { PageHeader } from "@/components/ui/page-header.tsx";
import { AlertsList } from "./alerts-list.tsx";

export const metadata = { title: "Alerts" };

export default function AlertsPage() {
  return (
    <>
      <PageHeader title="Alerts" description="Rules over the dashboard's figures, checked every minute. A rule that fires or resolves posts a signed event to its webhook." />
      <AlertsList />
    </>
  );
}
