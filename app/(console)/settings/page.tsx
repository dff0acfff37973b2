import { PageHeader } from "@/components/ui/page-header.tsx";
import { ApiKeysCard } from "./api-keys-card.tsx";
import { UsersCard } from "./users-card.tsx";
import { AuditCard } from "./audit-card.tsx";

export const metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="API keys for your SDKs and collectors, and the people in your organization." />
      <div className="space-y-6">
        <ApiKeysCard />
        <UsersCard />
        <AuditCard />
      </div>
    </>
  );
}
