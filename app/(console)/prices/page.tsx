import { PageHeader } from "@/components/ui/page-header.tsx";
import { PriceTable } from "./price-table.tsx";
import { CostUpkeep } from "./cost-upkeep.tsx";

export const metadata = { title: "Model prices" };

export default function PricesPage() {
  return (
    <>
      <PageHeader title="Model prices" description="What each model call costs: the shipped defaults and your organization's own prices. Costs are computed when spans arrive." />
      <div className="space-y-6">
        <CostUpkeep />
        <PriceTable />
      </div>
    </>
  );
}
