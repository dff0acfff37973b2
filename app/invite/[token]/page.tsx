import { LinkPage } from "../../sign-in/link-page.tsx";
import { AcceptInvitation } from "./accept-invitation.tsx";

export const metadata = { title: "Join your team" };
export const dynamic = "force-dynamic";

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <LinkPage title="Join your team">
      <AcceptInvitation token={token} />
    </LinkPage>
  );
}
