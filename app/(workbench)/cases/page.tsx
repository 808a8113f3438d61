// Minimal case list (built with the auth issue so sign-in has somewhere to land; the workbench issue owns its future).
// Lists exactly the cases the signed-in user is a member of, in their tenant: the same rule as assertCaseAccess.
import Link from "next/link";
import type { Metadata } from "next";
import { requirePageActor } from "@/lib/auth/current";
import { runtime } from "@/lib/server/runtime";
import { Card, ClassificationBadge } from "@/components/ui";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Cases · Casegraph" };

export default async function CasesPage() {
  const actor = await requirePageActor({ from: "/cases" });
  const { db } = await runtime();
  const cases = actor.tenantId
    ? await db.prisma.case.findMany({
        where: { tenantId: actor.tenantId, members: { some: { userId: actor.userId } } },
        orderBy: { title: "asc" },
        select: { id: true, title: true, description: true, classification: true, status: true },
      })
    : [];
  return (
    <main className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Your cases</h1>
      {cases.length === 0 ? (
        <Card>
          <p className="text-sm text-slate-600" data-testid="no-cases">
            You are not a member of any case. An administrator of your tenant can add you to one.
          </p>
        </Card>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2" data-testid="case-list">
          {cases.map((c) => (
            <li key={c.id} data-testid={`case-${c.id}`}>
              <Card>
                <div className="flex items-start justify-between gap-3">
                  <Link href={`/cases/${c.id}`} className="text-lg font-semibold text-blue-800 hover:underline">{c.title}</Link>
                  <ClassificationBadge classification={c.classification} />
                </div>
                <p className="mt-1 font-mono text-xs text-slate-500">{c.id} · {c.status}</p>
                <p className="mt-2 line-clamp-3 text-sm text-slate-700">{c.description}</p>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
