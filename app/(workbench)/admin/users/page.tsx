import Link from "next/link";
import type { Metadata } from "next";
import { requireAdminPage } from "@/lib/auth/current";
import { listUsers } from "@/lib/admin/users";
import { Badge, Card, ClassificationBadge, Table, TBody, THead, Td, Th, Tr, PageHeading } from "@/components/ui";
import { CreateUserForm } from "@/components/admin/user-forms";
import { SafeText } from "@/components/ui/safe-text";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Users · Admin · Casegraph" };

export default async function UsersPage() {
  const { actor, prisma } = await requireAdminPage();
  const users = await listUsers(prisma, actor);
  return (
    <>
      <PageHeading title="Users" />
      <Table data-testid="users-table">
        <THead>
          <Tr>
            <Th>User</Th>
            <Th>Roles</Th>
            <Th>Clearance</Th>
            <Th>Need-to-know</Th>
            <Th>Cases</Th>
            <Th>Tokens</Th>
            <Th>Status</Th>
          </Tr>
        </THead>
        <TBody>
          {users.map((u) => (
            <Tr key={u.id} data-testid={`user-row-${u.email}`}>
              <Td>
                <Link href={`/admin/users/${u.id}`} className="font-medium text-blue-800 hover:underline">
                  <SafeText text={u.name} />
                </Link>
                <div className="text-xs text-slate-500">
                  <SafeText text={u.email} />
                </div>
              </Td>
              <Td className="space-x-1">
                {u.roles.map((r) => (
                  <Badge key={r}>{r}</Badge>
                ))}
              </Td>
              <Td>
                <ClassificationBadge classification={u.clearance} />
              </Td>
              <Td className="text-xs">{u.needToKnow.length ? u.needToKnow.join(", ") : <span className="text-slate-400">none</span>}</Td>
              <Td className="text-xs">{u.caseIds.length ? u.caseIds.join(", ") : <span className="text-slate-400">none</span>}</Td>
              <Td>{u.activeTokens}</Td>
              <Td>{u.active ? <Badge tone="green">active</Badge> : <Badge tone="red">deactivated</Badge>}</Td>
            </Tr>
          ))}
        </TBody>
      </Table>
      <Card title="Create a user" description="There is no self-service sign-up: accounts are created here (or with the CLI).">
        <CreateUserForm maxClearance={actor.clearance} />
      </Card>
    </>
  );
}
