// The signed-in app shell. Every page under (workbench) renders inside it; signed-out visitors go to /login. The
// navigation shows what the user's roles allow, and each page checks again on the server (the menu is not the check).
import Link from "next/link";
import { headers } from "next/headers";
import { requirePageActor } from "@/lib/auth/current";
import { Badge, Button, ClassificationBadge } from "@/components/ui";
import { NavLink } from "@/components/admin/nav-link";
import { signOutAction } from "../(auth)/actions";

export const dynamic = "force-dynamic";

export default async function WorkbenchLayout({ children }: { children: React.ReactNode }) {
  const h = await headers();
  const actor = await requirePageActor({ from: h.get("x-casegraph-path") ?? undefined });
  const canAudit = actor.roles.includes("supervisor") || actor.roles.includes("admin");
  const isAdmin = actor.roles.includes("admin");
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl items-center gap-6 px-4 py-2.5">
          <Link href="/cases" className="text-lg font-semibold tracking-tight text-slate-900">
            Casegraph
          </Link>
          <nav aria-label="Main" className="flex items-center gap-1">
            <NavLink href="/cases">Cases</NavLink>
            {canAudit ? <NavLink href="/audit">Audit</NavLink> : null}
            {isAdmin ? <NavLink href="/admin">Admin</NavLink> : null}
            <NavLink href="/account">Account</NavLink>
          </nav>
          <div className="ml-auto flex items-center gap-3 text-sm">
            <div className="text-right leading-tight" data-testid="current-user">
              <div className="font-medium text-slate-900">{actor.name}</div>
              <div className="text-xs text-slate-500">{actor.email}</div>
            </div>
            <ClassificationBadge classification={actor.clearance} />
            <div className="hidden gap-1 sm:flex">
              {actor.roles.map((r) => (
                <Badge key={r} tone={r === "admin" ? "red" : r === "supervisor" ? "amber" : "blue"}>
                  {r}
                </Badge>
              ))}
            </div>
            <form action={signOutAction}>
              <Button type="submit" variant="secondary" size="sm">
                Sign out
              </Button>
            </form>
          </div>
        </div>
      </header>
      <div className="mx-auto max-w-7xl px-4 py-6">{children}</div>
    </div>
  );
}
