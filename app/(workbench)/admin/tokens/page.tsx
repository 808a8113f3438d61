import type { Metadata } from "next";
import { requirePageActor } from "@/lib/auth/current";
import { listTokens } from "@/lib/admin/tokens";
import { runtime } from "@/lib/server/runtime";
import { TokenTable } from "@/components/tokens/token-table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API tokens · Admin · Casegraph" };

export default async function TokensPage() {
  const actor = await requirePageActor({ roles: ["admin"] });
  const { db } = await runtime();
  const tokens = await listTokens(db.prisma, actor);
  return (
    <>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">API tokens</h1>
        <p className="text-sm text-slate-600">
          A token acts as its user on the HTTP API, with that user&apos;s current roles, clearance and memberships. Only a hash is stored.
          Tokens are created by their owners on their Account page — never by an admin for someone else — and an admin can revoke any of
          the tenant&apos;s. An operator can issue one for a user with <code className="font-mono text-xs">npm run casegraph -- token create</code>;
          the ledger records that it was issued on the user&apos;s behalf.
        </p>
      </div>
      <TokenTable tokens={tokens} />
    </>
  );
}
