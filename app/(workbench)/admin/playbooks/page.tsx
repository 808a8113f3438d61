// The playbook catalogue (issue 16): what Casegraph may suggest as a next step in this tenant. The model never sees
// the labels: they filter the catalogue before it is asked, and it only picks among what is left.
import type { Metadata } from "next";
import { requireAdminPage } from "@/lib/auth/current";
import { listPlaybooks } from "@/lib/admin/playbooks";
import { Badge, Card, PageHeading, SafeText, Table, TBody, Td, Th, THead, Tr } from "@/components/ui";
import { CaseLabelsForm, PlaybookActiveButton, PlaybookForm, RiskToleranceForm } from "@/components/admin/playbook-forms";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Playbooks · Admin · Casegraph" };

const RISK_TONE = { low: "green", medium: "amber", high: "red" } as const;

function Labels({ p }: { p: Awaited<ReturnType<typeof listPlaybooks>>["own"][number] }) {
  return (
    <div className="flex flex-wrap gap-1 text-xs">
      <Badge tone={RISK_TONE[p.riskLevel as "low"] ?? "neutral"}>risk {p.riskLevel}</Badge>
      <Badge tone="neutral">{p.requiredAuthority.replace("_", " ")}</Badge>
      <Badge tone="neutral">≥ {p.minClearance}</Badge>
      {p.caseTypes.length ? <Badge tone="blue">{p.caseTypes.join(", ")}</Badge> : null}
      {p.jurisdictions.length ? <Badge tone="blue">{p.jurisdictions.join(", ")}</Badge> : null}
      {p.needToKnow.length ? <Badge tone="amber">{p.needToKnow.join(", ")}</Badge> : null}
    </div>
  );
}

export default async function PlaybooksPage() {
  const { actor, prisma } = await requireAdminPage();
  const [catalogue, tenant, cases] = await Promise.all([
    listPlaybooks(prisma, actor),
    prisma.tenant.findUnique({ where: { id: actor.tenantId }, select: { riskTolerance: true } }),
    prisma.case.findMany({
      where: { tenantId: actor.tenantId },
      select: { id: true, caseType: true, jurisdiction: true },
      orderBy: { id: "asc" },
    }),
  ]);
  return (
    <>
      <PageHeading title="Playbooks" />
      <p className="text-sm text-slate-600">
        Suggested next steps come only from this catalogue. Before the model is asked, every playbook that does not fit the case (type,
        jurisdiction), the asker (clearance, need-to-know, legal authority) or this tenant&apos;s risk tolerance is removed; the model sees
        only id, version, description and a confidence, and picks. A suggestion is carried out by no one until an investigator proposes it
        and a supervisor approves it. Every change here is a ledger entry.
      </p>
      <Card title="Risk tolerance">
        <RiskToleranceForm value={tenant?.riskTolerance ?? "low"} />
      </Card>
      <Card title="Case labels" description="What the filter reads of a case.">
        <CaseLabelsForm cases={cases} />
      </Card>
      <Card title="Add a playbook">
        <PlaybookForm />
      </Card>
      <Card title={`This tenant's playbooks (${catalogue.own.length})`}>
        {catalogue.own.length ? (
          <Table data-testid="own-playbooks">
            <THead>
              <Tr>
                <Th>Playbook</Th>
                <Th>Labels</Th>
                <Th>Status</Th>
              </Tr>
            </THead>
            <TBody>
              {catalogue.own.map((p) => (
                <Tr key={p.id} data-testid={`playbook-${p.id}`}>
                  <Td className="max-w-md">
                    <span className="font-mono text-xs">
                      {p.id} · {p.version}
                    </span>
                    <p className="text-sm">
                      <SafeText text={p.description} />
                    </p>
                    <details className="mt-1 text-xs">
                      <summary className="cursor-pointer text-blue-700">Edit</summary>
                      <div className="mt-2">
                        <PlaybookForm playbook={p} />
                      </div>
                    </details>
                  </Td>
                  <Td>
                    <Labels p={p} />
                  </Td>
                  <Td className="space-y-1">
                    <Badge tone={p.active ? "green" : "neutral"}>{p.active ? "active" : "retired"}</Badge>
                    <div>
                      <PlaybookActiveButton id={p.id} active={p.active} />
                    </div>
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        ) : (
          <p className="text-sm text-slate-600">None yet.</p>
        )}
      </Card>
      <Card
        title={`Shared playbooks (${catalogue.shared.length})`}
        description="Maintained by operators through workspace bundles; read only here."
      >
        <ul className="space-y-2" data-testid="shared-playbooks">
          {catalogue.shared.map((p) => (
            <li key={p.id} className="text-sm">
              <span className="font-mono text-xs">
                {p.id} · {p.version}
              </span>{" "}
              <SafeText text={p.description} /> <Labels p={p} />
            </li>
          ))}
        </ul>
      </Card>
      {catalogue.hidden ? (
        <p className="text-sm text-slate-600" data-testid="hidden-playbooks">
          {catalogue.hidden} playbook(s) are outside your clearance or need-to-know; an admin who holds them, or an operator, manages them.
        </p>
      ) : null}
    </>
  );
}
