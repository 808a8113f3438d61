import type { Metadata } from "next";
import { requirePageActor } from "@/lib/auth/current";
import { runtime } from "@/lib/server/runtime";
import { listSwitches } from "@/lib/server/runtime/kill-switches";
import { Card } from "@/components/ui";
import { KillSwitchForm, LicenseDocumentForm, RevokeEvidenceForm } from "@/components/admin/grounding-forms";
import { unlicensedDocuments } from "@/lib/admin/documents";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Evidence & switches · Admin · Casegraph" };

const DESCRIPTIONS = {
  DISABLE_ANSWER_REUSE: "every question is answered afresh; no earlier answer is reused",
  DISABLE_MODEL: "answers are `unable` without calling the model; retrieval, unknowns and the audit still work",
  DISABLE_EXPORTS: "audit exports and compliance artifacts are refused",
} as const;

export default async function GroundingPage() {
  const actor = await requirePageActor({ roles: ["admin"] });
  const { db } = await runtime();
  const [cases, switches, unlicensed] = await Promise.all([
    db.prisma.case.findMany({ where: { tenantId: actor.tenantId }, select: { id: true }, orderBy: { id: "asc" } }),
    listSwitches(db.prisma, actor.tenantId),
    unlicensedDocuments(db.prisma, actor),
  ]);
  const own = switches.filter((s) => s.tenantId === actor.tenantId);
  const deployment = switches.filter((s) => s.tenantId === "*" && s.enabled).map((s) => s.name);
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Evidence &amp; switches</h1>
      <Card
        title="Revoke evidence"
        description="A revoked item is never retrieved, shown, cited or reused again; answers that cited it are flagged. Final, and recorded in the ledger."
      >
        <RevokeEvidenceForm cases={cases.map((c) => c.id)} />
      </Card>
      <Card
        title="Unlicensed documents"
        description="Evidence ingested without a license is stored but invisible to analysis until licensed here (or with `casegraph evidence license`). Each licensing is a ledger entry."
      >
        {unlicensed.documents.length ? (
          <div className="space-y-3">
            {unlicensed.documents.map((d) => (
              <LicenseDocumentForm
                key={`${d.caseId}/${d.id}`}
                caseId={d.caseId}
                documentId={d.id}
                name={d.name}
                licenses={unlicensed.licenses}
              />
            ))}
          </div>
        ) : (
          <p className="text-sm text-slate-600" data-testid="no-unlicensed-documents">
            No unlicensed documents you may see.
          </p>
        )}
        {unlicensed.hidden ? (
          <p className="mt-3 text-sm text-slate-600">
            {unlicensed.hidden} unlicensed document(s) are outside your clearance or need-to-know.
          </p>
        ) : null}
      </Card>
      <Card title="Kill switches" description="For this tenant; each flip is a ledger entry. Grounding itself cannot be switched off.">
        <div className="space-y-3">
          {own.map((s) => (
            <KillSwitchForm key={s.name} name={s.name} enabled={s.enabled} description={DESCRIPTIONS[s.name]} />
          ))}
        </div>
        {deployment.length ? (
          <p className="mt-3 text-sm text-red-800">Switched on for the whole deployment by an operator: {deployment.join(", ")}.</p>
        ) : null}
      </Card>
    </>
  );
}
