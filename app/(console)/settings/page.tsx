import { PageHeader } from "@/components/ui/page-header.tsx";
import { AccountCard } from "./account-card.tsx";
import { ApiKeysCard } from "./api-keys-card.tsx";
import { SettingsAdminCards } from "./settings-admin-cards.tsx";
import { RedactionCard } from "./redaction-card.tsx";
import { UsersCard } from "./users-card.tsx";
import { RetentionCard } from "./retention-card.tsx";
import { DeletedCard } from "./deleted-card.tsx";

export const metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="API keys for your SDKs and collectors, the people in your organization, your account, single sign-on, what is masked before anything is stored, and how long traces are kept." />
      <div className="space-y-6">
        <ApiKeysCard />
        <UsersCard />
        <AccountCard />
        <SettingsAdminCards />
        <RedactionCard />
        <RetentionCard />
        <DeletedCard />
      </div>
    </>
  );
}
