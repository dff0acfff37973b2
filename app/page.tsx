import { redirect } from "next/navigation";

// The console starts at the trace list; the console layout sends signed-out visitors to /sign-in.
export default function Home() {
  redirect("/traces");
}
