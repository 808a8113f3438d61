import type { Metadata } from "next";
import { requireAdminPage } from "@/lib/auth/current";
import { listCaseMemberships } from "@/lib/admin/memberships";
import { listUsers } from "@/lib/admin/users";
import { Badge, Card, ClassificationBadge, PageHeading } from "@/components/ui";
import { AddMemberForm, IngestPermissionToggle, RemoveMemberButton } from "@/components/admin/membership-forms";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Case membership · Admin · Casegraph" };

export default async function MembershipsPage() {
  const { actor, prisma } = await requireAdminPage();
  const [cases, users] = await Promise.all([listCaseMemberships(prisma, actor), listUsers(prisma, actor)]);
  // Nobody adds or removes themselves (separation of duties; the server refuses it too).
  const activeUsers = users.filter((u) => u.active && u.id !== actor.userId);
  return (
    <>
      <PageHeading title="Case membership">
        Only members can open a case and ask about it. Removing a member applies to their next request. A member who may add evidence
        uploads documents to the case (supervisors and admins of the tenant always may).
      </PageHeading>
      {cases.length === 0 ? <p className="text-sm text-slate-500">This tenant has no cases yet. Import a bundle with the CLI.</p> : null}
      {cases.map((c) => {
        const memberIds = new Set(c.members.map((m) => m.userId));
        return (
          <Card
            key={c.id}
            title={
              <span className="flex items-center gap-2">
                {c.title} <ClassificationBadge classification={c.classification} />
              </span>
            }
            description={
              <span className="font-mono text-xs">
                {c.id} · {c.status}
              </span>
            }
          >
            <div data-testid={`case-members-${c.id}`}>
              {c.members.length ? (
                <ul className="divide-y divide-slate-100">
                  {c.members.map((m) => (
                    <li key={m.userId} className="flex items-center justify-between py-2 text-sm" data-testid={`member-${c.id}-${m.email}`}>
                      <span>
                        {m.name} <span className="text-slate-500">({m.email})</span>{" "}
                        {m.active ? null : <Badge tone="red">deactivated</Badge>}
                      </span>
                      {m.userId === actor.userId ? (
                        <span className="text-xs text-slate-500">you (another admin changes your memberships)</span>
                      ) : (
                        <span className="flex items-center gap-3">
                          <IngestPermissionToggle
                            caseId={c.id}
                            user={{ id: m.userId, email: m.email }}
                            granted={m.permissions.includes("ingest")}
                          />
                          <RemoveMemberButton caseId={c.id} caseTitle={c.title} user={{ id: m.userId, email: m.email }} />
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-slate-500">No members.</p>
              )}
            </div>
            <div className="mt-3">
              <AddMemberForm
                caseId={c.id}
                candidates={activeUsers.filter((u) => !memberIds.has(u.id)).map((u) => ({ id: u.id, email: u.email, name: u.name }))}
              />
            </div>
          </Card>
        );
      })}
    </>
  );
}
