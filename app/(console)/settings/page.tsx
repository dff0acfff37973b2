import { PageHeader } from "@/components/ui/page-header.tsx";
import { AccountCard } from "./account-card.tsx";
import { ApiKeysCard } from "./api-keys-card.tsx";
import { SettingsAdminCards } from "./settings-admin-cards.tsx";
import { UsersCard } from "./users-card.tsx";

export const metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="API keys for your SDKs and collectors, the people in your organization, your account and single sign-on." />
      <div className="space-y-6">
        <ApiKeysCard />
        <UsersCard />
        <AccountCard />
        <SettingsAdminCards />
      </div>
    </>
  );
}
