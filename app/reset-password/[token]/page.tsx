import { LinkPage } from "../../sign-in/link-page.tsx";
import { ResetPassword } from "./reset-password.tsx";

export const metadata = { title: "Choose a new password" };
export const dynamic = "force-dynamic";

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <LinkPage title="Choose a new password">
      <ResetPassword token={token} />
    </LinkPage>
  );
}
