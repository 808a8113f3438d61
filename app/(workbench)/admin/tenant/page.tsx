import type { Metadata } from "next";
import { requireAdminPage } from "@/lib/auth/current";
import { getTenant } from "@/lib/admin/tenant";
import { Card, PageHeading } from "@/components/ui";
import { HiddenCountsForm, TenantNameForm } from "@/components/admin/tenant-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Tenant · Admin · Casegraph" };

export default async function TenantPage() {
  const { actor, prisma } = await requireAdminPage();
  const tenant = await getTenant(prisma, actor);
  return (
    <>
      <PageHeading title="Tenant" />
      <Card title={tenant.name} description={<span className="font-mono text-xs">{tenant.id}</span>}>
        <dl className="mb-4 grid grid-cols-3 gap-4 text-sm">
          <div>
            <dt className="text-slate-500">Users</dt>
            <dd className="text-lg font-semibold">{tenant.users}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Cases</dt>
            <dd className="text-lg font-semibold">{tenant.cases}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Created</dt>
            <dd>{tenant.createdAt.toISOString().slice(0, 10)}</dd>
          </div>
        </dl>
        <TenantNameForm name={tenant.name} />
      </Card>
      <Card title="Answers">
        <HiddenCountsForm mode={tenant.hiddenCountMode} />
      </Card>
      <p className="text-sm text-slate-600">
        Tenants isolate everything: an admin sees and manages only this one. New tenants are created by an operator with{" "}
        <code className="font-mono text-xs">
          npm run casegraph -- user create --email … --admin --tenant &lt;id&gt; --tenant-name &quot;…&quot;
        </code>
        .
      </p>
    </>
  );
}
