import type { Metadata } from "next";
import { requireAdminPage } from "@/lib/auth/current";
import { listLicenses } from "@/lib/admin/licenses";
import { Badge, Card, PageHeading } from "@/components/ui";
import { LicenseForm } from "@/components/admin/license-forms";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Licenses · Admin · Casegraph" };

export default async function LicensesPage() {
  const { actor, prisma } = await requireAdminPage();
  const licenses = await listLicenses(prisma, actor);
  return (
    <>
      <PageHeading title="Licenses">
        A license lists the uses its evidence allows; only evidence whose license allows ANALYZE or INTERNAL_USE reaches the model. Shared
        licenses come with imported bundles and may be used by other tenants too: operators change them by re-importing. Licenses created
        here belong to this tenant.
      </PageHeading>
      {licenses.map((l) => (
        <Card
          key={l.id}
          title={
            <span className="flex items-center gap-2">
              {l.name} {l.shared ? <Badge>shared</Badge> : <Badge tone="blue">this tenant</Badge>}
            </span>
          }
          description={
            <span>
              <span className="font-mono text-xs">{l.id}</span> · {l.evidenceCount} evidence item(s) in this tenant
            </span>
          }
        >
          {l.shared ? (
            <div className="flex flex-wrap gap-1">
              {l.allows.map((a) => (
                <Badge key={a} tone="green">
                  {a}
                </Badge>
              ))}
              {l.allows.length ? null : <span className="text-sm text-slate-500">no uses</span>}
            </div>
          ) : (
            <LicenseForm license={l} />
          )}
        </Card>
      ))}
      <Card title="Create a license">
        <LicenseForm />
      </Card>
    </>
  );
}
