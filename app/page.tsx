// `/` opens nothing of its own: a signed-in user goes to their home (cases, audit or admin by role), anyone else to
// sign-in. Nothing about the installation (tenants, cases, users) is shown to an anonymous visitor.
import { redirect } from "next/navigation";
import { currentActor } from "@/lib/auth/current";
import { homePathFor } from "@/lib/auth/home";

export const dynamic = "force-dynamic";

export default async function Home() {
  const actor = await currentActor();
  redirect(actor ? homePathFor(actor.roles) : "/login");
}
