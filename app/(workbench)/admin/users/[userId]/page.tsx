import Link from "next/link";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { requirePageActor } from "@/lib/auth/current";
import { listCaseMemberships } from "@/lib/admin/memberships";
import { listUserTokens } from "@/lib/admin/tokens";
import { getUser } from "@/lib/admin/users";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { runtime } from "@/lib/server/runtime";
import { Badge, Card, ClassificationBadge } from "@/components/ui";
import { EditUserForm, ResetPasswordForm, UserStatusControl } from "@/components/admin/user-forms";
import { TokenTable } from "@/components/tokens/token-table";
import { LegalAuthorityForm } from "@/components/admin/playbook-forms";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "User · Admin · Casegraph" };

export default async function UserPage({ params }: { params: Promise<{ userId: string }> }) {
  const actor = await requirePageActor({ roles: ["admin"] });
  const { userId } = await params;
  const { db } = await runtime();
  let user;
  try {
    user = await getUser(db.prisma, actor, decodeURIComponent(userId));
  } catch (err) {
    if (err instanceof CasegraphError && err.code === "CG-ACCESS-003") notFound(); // Other tenants' users do not exist here.
    throw err;
  }
  const [cases, tokens, authority] = await Promise.all([
    listCaseMemberships(db.prisma, actor),
    listUserTokens(db.prisma, actor, user.id),
    db.prisma.user.findFirst({ where: { id: user.id, tenantId: actor.tenantId }, select: { legalAuthority: true } }),
  ]);
  const memberOf = cases.filter((c) => c.members.some((m) => m.userId === user.id));
  return (
    <>
      <div>
        <Link href="/admin/users" className="text-sm text-blue-800 hover:underline">
          ← Users
        </Link>
        <h1 className="mt-1 flex items-center gap-3 text-2xl font-semibold tracking-tight">
          {user.name}
          <ClassificationBadge classification={user.clearance} />
          {user.active ? <Badge tone="green">active</Badge> : <Badge tone="red">deactivated</Badge>}
        </h1>
        <p className="text-sm text-slate-600">{user.email}</p>
      </div>
      <Card title="Roles, clearance and need-to-know" description="Changes apply to the user's very next request.">
        <EditUserForm user={user} maxClearance={actor.clearance} self={user.id === actor.userId} />
      </Card>
      <Card title="Legal authority" description="The legal process suggested next steps may require of this user (Admin → Playbooks).">
        <LegalAuthorityForm userId={user.id} value={authority?.legalAuthority ?? []} self={user.id === actor.userId} />
      </Card>
      <Card
        title="Cases"
        description={
          <>
            Membership is managed on the{" "}
            <Link className="text-blue-800 hover:underline" href="/admin/memberships">
              Case membership
            </Link>{" "}
            page.
          </>
        }
      >
        {memberOf.length ? (
          <ul className="list-inside list-disc text-sm">
            {memberOf.map((c) => (
              <li key={c.id}>
                {c.title} <span className="text-slate-500">({c.id})</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">Not a member of any case.</p>
        )}
      </Card>
      <Card title="API tokens" description="Users create their own tokens on their Account page; an admin can revoke them.">
        <TokenTable tokens={tokens} showUser={false} />
      </Card>
      <div className="grid gap-6 md:grid-cols-2">
        <Card title="Password">
          <ResetPasswordForm userId={user.id} />
        </Card>
        <Card title="Account status">
          <UserStatusControl user={user} self={user.id === actor.userId} />
        </Card>
      </div>
    </>
  );
}
