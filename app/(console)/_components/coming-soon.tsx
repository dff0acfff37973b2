import { Card } from "@/components/ui/card.tsx";
import { EmptyState } from "@/components/ui/states.tsx";

/** Placeholder for a page whose backing service has not landed yet. */
export function ComingSoon({ what, children }: { what: string; children?: React.ReactNode }) {
  return (
    <Card>
      <EmptyState title={`${what} will appear here`}>{children}</EmptyState>
    </Card>
  );
}
