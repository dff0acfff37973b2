import { PageHeader } from "@/components/ui/page-header.tsx";
import { SimPlanNodes } from "./sim-plan-nodes.tsx";

export const metadata = { title: "Sim plan" };

export default function SimPlanPage() {
  return (
    <>
      <PageHeader
        title="Sim plan"
        description="Each node is a span name under the trace function of its trace's root. Turn content capture off for nodes whose inputs and outputs must not be recorded; SDKs read the plan about once a minute."
      />
      <SimPlanNodes />
    </>
  );
}
