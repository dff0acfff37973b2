import { Card } from "@/components/ui/card.tsx";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { FirstTraceGuide } from "../_components/first-trace-guide.tsx";

export const metadata = { title: "Traces" };

export default function TracesPage() {
  return (
    <>
      <PageHeader title="Traces" description="Recorded executions of your app, newest first." />
      <Card>
        <FirstTraceGuide />
      </Card>
    </>
  );
}
