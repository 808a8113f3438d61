import type { Metadata } from "next";
import { requirePageActor } from "@/lib/auth/current";
import { listTokens, listUsers } from "@/lib/auth/admin";
import { runtime } from "@/lib/server/runtime";
import { Card } from "@/components/ui";
import { IssueTokenForm } from "@/components/admin/token-forms";
import { TokenTable } from "@/components/admin/token-table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API tokens · Admin · Casegraph" };

export default async function TokensPage() {
  const actor = await requirePageActor({ roles: ["admin"] });
  const { db } = await runtime();
  const [tokens, users] = await Promise.all([listTokens(db.prisma, actor), listUsers(db.prisma, actor)]);
  return (
    <>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">API tokens</h1>
        <p className="text-sm text-slate-600">
          A token acts as its user on the HTTP API, with that user&apos;s current roles, clearance and memberships. Only a hash is stored.
        </p>
      </div>
      <Card title="Issue a token">
        <IssueTokenForm users={users.filter((u) => u.active).map((u) => ({ id: u.id, email: u.email, name: u.name }))} />
      </Card>
      <TokenTable tokens={tokens} />
    </>
  );
}
