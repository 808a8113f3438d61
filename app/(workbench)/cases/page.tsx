// The cases the signed-in user is a member of (in their tenant: the rule of assertCaseAccess), with what they may see
// of each — counts after the policy filter — and the last activity from the audit ledger.
import Link from "next/link";
import type { Metadata } from "next";
import { requirePageActor } from "@/lib/auth/current";
import { listCases } from "@/lib/server/workbench/cases";
import { Card, ClassificationBadge } from "@/components/ui";
import { formatDateTime, plural } from "@/components/answer/format";
import { SafeText } from "@/components/ui/safe-text";
import { hasRole } from "@/lib/auth/actor";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Cases · Casegraph" };

export default async function CasesPage() {
  const actor = await requirePageActor({ from: "/cases" });
  const cases = await listCases(actor);
  const canOpen = hasRole(actor, "investigator", "supervisor");
  return (
    <main className="space-y-4">
      <div className="flex items-baseline justify-between">
        <h1 className="text-2xl font-semibold tracking-tight">Your cases</h1>
        <p className="text-sm text-slate-600">Counts show what your clearance, need-to-know and licenses let you see.</p>
      </div>
      {cases.length === 0 ? (
        <Card>
          <p className="text-sm text-slate-600" data-testid="no-cases">
            You are not a member of any case. An administrator of your tenant can add you to one.
          </p>
        </Card>
      ) : (
        <ul
          className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
          data-testid="case-list"
        >
          {cases.map((c) => {
            const hidden = c.hidden.nodes + c.hidden.edges + c.hidden.evidence;
            return (
              <li key={c.id} data-testid={`case-${c.id}`} className="grid grid-cols-[minmax(0,1fr)_13rem_12rem] gap-4 px-4 py-3">
                <div className="min-w-0">
                  <div className="flex items-center gap-2">
                    {canOpen ? (
                      <Link
                        href={`/cases/${encodeURIComponent(c.id)}`}
                        className="truncate text-base font-semibold text-blue-800 hover:underline"
                      >
                        <SafeText text={c.title} />
                      </Link>
                    ) : (
                      <span className="truncate text-base font-semibold text-slate-900">
                        <SafeText text={c.title} />
                      </span>
                    )}
                    <ClassificationBadge classification={c.classification} />
                    <span className="text-xs uppercase text-slate-600">{c.status.toLowerCase()}</span>
                  </div>
                  <p className="mt-0.5 text-xs text-slate-600">
                    <span className="font-mono">{c.id}</span> · {c.tenant.name}
                  </p>
                  <p className="mt-1 line-clamp-2 text-sm text-slate-700">
                    <SafeText text={c.description} />
                  </p>
                </div>
                <div className="text-sm" data-testid={`case-${c.id}-visible`}>
                  <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Visible to you</p>
                  <p className="text-slate-900">
                    {plural(c.visible.nodes, "node")} · {plural(c.visible.edges, "relationship")}
                  </p>
                  <p className="text-slate-900">{plural(c.visible.evidence, "evidence item")}</p>
                  {hidden ? <p className="text-xs text-slate-600">{plural(hidden, "item")} hidden by policy</p> : null}
                </div>
                <div className="text-sm">
                  <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Last activity</p>
                  <p className="text-slate-900">{c.lastActivityAt ? formatDateTime(c.lastActivityAt) : "None yet"}</p>
                  <p className="text-xs text-slate-600">
                    {c.myLastQuestionAt ? `Your last question: ${formatDateTime(c.myLastQuestionAt)}` : "You have not asked yet"}
                  </p>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </main>
  );
}
