// Proposed next steps (issue 16): steps investigators proposed for their cases from the playbook catalogue, for the
// tenant's supervisors to approve or reject with a note. A decision is recorded (here and in the ledger); Casegraph
// carries out nothing.
import Link from "next/link";
import type { Metadata } from "next";
import { requirePageActor } from "@/lib/auth/current";
import { StatusFilter, statusParam } from "@/components/audit/status-filter";
import { listNextStepProposals } from "@/lib/server/playbooks/proposals";
import { runtime } from "@/lib/server/runtime";
import { SafeText } from "@/components/ui";
import { ProposalCard } from "@/components/audit/next-step-decision";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Proposed next steps · Casegraph" };

export default async function NextStepsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requirePageActor({ roles: ["supervisor"], from: "/audit/next-steps" });
  const sp = await searchParams;
  const wanted = statusParam(sp);
  const { db } = await runtime();
  const { steps, hidden } = await listNextStepProposals(db.prisma, actor, wanted ? { status: wanted } : {});
  return (
    <div className="space-y-5">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Proposed next steps</h1>
        <p className="mt-1 text-sm text-slate-600">
          Playbooks from {actor.tenantId}&apos;s catalogue that investigators proposed for their cases. Approve or reject each with a note;
          the decision is a ledger entry and the case lists approved steps. Casegraph executes nothing.{" "}
          <Link className="text-blue-700 underline" href="/audit">
            Audit explorer
          </Link>
        </p>
        <StatusFilter base="/audit/next-steps" wanted={wanted} />
      </header>
      {steps.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="no-proposals">
          No proposed steps{wanted ? ` (${wanted})` : ""}.
        </p>
      ) : (
        <ul className="space-y-3" data-testid="proposals">
          {steps.map((s) => (
            <ProposalCard key={s.id} proposal={s}>
              <p className="font-medium">
                <SafeText text={s.description} />
              </p>
              <p className="font-mono text-xs text-slate-500">
                {s.playbookId} · {s.version} · case {s.caseId} · proposed by {s.proposerEmail} {s.createdAt.slice(0, 16).replace("T", " ")}
              </p>
              {s.reason ? (
                <p className="mt-1 text-sm text-slate-700">
                  <SafeText text={s.reason} />
                  {s.citations.length ? <span className="ml-1 font-mono text-xs text-slate-500">({s.citations.join(", ")})</span> : null}
                </p>
              ) : null}
            </ProposalCard>
          ))}
        </ul>
      )}
      {hidden ? <p className="text-sm text-slate-600">{hidden} proposed step(s) are outside your clearance or need-to-know.</p> : null}
    </div>
  );
}
