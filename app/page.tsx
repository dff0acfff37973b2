import { redirect } from "next/navigation";

// The console starts at the dashboard (docs/dashboard.md); the console layout sends signed-out visitors to /sign-in.
export default function Home() {
  redirect("/dashboard");
}
