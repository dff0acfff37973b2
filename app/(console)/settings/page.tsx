import { PageHeader } from "@/components/ui/page-header.tsx";
import { ApiKeysCard } from "./api-keys-card.tsx";
import { RedactionCard } from "./redaction-card.tsx";
import { UsersCard } from "./users-card.tsx";

export const metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="API keys for your SDKs and collectors, the people in your organization, and what is masked before anything is stored." />
      <div className="space-y-6">
        <ApiKeysCard />
        <UsersCard />
        <RedactionCard />
      </div>
    </>
  );
}
