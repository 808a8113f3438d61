// The signed-in user's own account: what they may see (clearance, need-to-know, roles, cases) and their API tokens,
// which only they create (an admin can revoke them).
import type { Metadata } from "next";
import { listOwnTokens } from "@/lib/admin/tokens";
import { requirePageActor } from "@/lib/auth/current";
import { runtime } from "@/lib/server/runtime";
import { listCases } from "@/lib/server/workbench/cases";
import { Card, ClassificationBadge } from "@/components/ui";
import { CreateTokenForm } from "@/components/tokens/token-forms";
import { TokenTable } from "@/components/tokens/token-table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Account · Casegraph" };

export default async function AccountPage() {
  const actor = await requirePageActor({ from: "/account" });
  const { db } = await runtime();
  const [tokens, cases] = await Promise.all([listOwnTokens(db.prisma, actor), listCases(actor)]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Your account</h1>
      <Card title={actor.name} description={actor.email}>
        <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-slate-500">Clearance</dt>
            <dd>
              <ClassificationBadge classification={actor.clearance} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Need-to-know</dt>
            <dd>{actor.needToKnow.length ? actor.needToKnow.join(", ") : "none"}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Roles</dt>
            <dd>{actor.roles.join(", ") || "none"}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Cases</dt>
            <dd>{cases.length ? cases.map((c) => c.title).join(", ") : "none"}</dd>
          </div>
        </dl>
        <p className="mt-3 text-xs text-slate-500">Only another admin of your tenant can change these; nobody changes their own.</p>
      </Card>
      <Card
        title="Your API tokens"
        description="A token acts as you on the HTTP API, with your current permissions. It is shown once; only a hash is stored."
      >
        <div className="space-y-4">
          <CreateTokenForm />
          <TokenTable tokens={tokens} showUser={false} own />
        </div>
      </Card>
    </div>
  );
}
