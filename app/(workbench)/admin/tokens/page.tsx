import type { Metadata } from "next";
import { requireAdminPage } from "@/lib/auth/current";
import { listTokens } from "@/lib/admin/tokens";
import { TokenTable } from "@/components/tokens/token-table";
import { PageHeading } from "@/components/ui";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API tokens · Admin · Casegraph" };

export default async function TokensPage() {
  const { actor, prisma } = await requireAdminPage();
  const tokens = await listTokens(prisma, actor);
  return (
    <>
      <PageHeading title="API tokens">
        A token acts as its user on the HTTP API, with that user&apos;s current roles, clearance and memberships. Only a hash is stored.
        Tokens are created by their owners on their Account page — never by an admin for someone else — and an admin can revoke any of the
        tenant&apos;s. An operator can issue one for a user with{" "}
        <code className="font-mono text-xs">npm run casegraph -- token create</code>; the ledger records that it was issued on the
        user&apos;s behalf.
      </PageHeading>
      <TokenTable tokens={tokens} />
    </>
  );
}
