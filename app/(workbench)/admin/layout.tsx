import { requirePageActor } from "@/lib/auth/current";
import { NavLink } from "@/components/admin/nav-link";

export const dynamic = "force-dynamic";

/** Admin area: admins only (others get a 404 here, and every admin action checks the role again). */
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const actor = await requirePageActor({ roles: ["admin"], from: "/admin" });
  return (
    <div className="grid gap-6 md:grid-cols-[12rem_1fr]">
      <aside>
        <p className="mb-2 px-3 text-xs font-semibold uppercase tracking-wide text-slate-500">Admin · {actor.tenantId}</p>
        <nav aria-label="Admin" className="flex flex-row flex-wrap gap-1 md:flex-col">
          <NavLink href="/admin/users">Users</NavLink>
          <NavLink href="/admin/memberships">Case membership</NavLink>
          <NavLink href="/admin/tokens">API tokens</NavLink>
          <NavLink href="/admin/licenses">Licenses</NavLink>
          <NavLink href="/admin/tenant">Tenant</NavLink>
          <NavLink href="/admin/policies">Answer policies</NavLink>
          <NavLink href="/admin/grounding">Evidence &amp; switches</NavLink>
          <NavLink href="/admin/playbooks">Playbooks</NavLink>
        </nav>
      </aside>
      <main className="min-w-0 space-y-6">{children}</main>
    </div>
  );
}
