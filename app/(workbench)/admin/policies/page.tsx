import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Metadata } from "next";
import { requireAdminPage } from "@/lib/auth/current";
import { getBundle, listBundles } from "@/lib/admin/answer-policies";
import type { BundleView } from "@/lib/domain/policy-views";
import { describeConflicts } from "@/lib/policy/describe";
import { Card, PageHeading } from "@/components/ui";
import { BundleList, PolicyEditor } from "@/components/admin/policy-forms";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Answer policies · Admin · Casegraph" };

/** The demo tenants' example policies, offered in the editor until the tenant has its own. */
async function demoPolicies(tenantId: string): Promise<string> {
  if (!/^[a-z0-9-]+$/.test(tenantId)) return "";
  return readFile(path.resolve(process.cwd(), "prisma/demo/policies", `${tenantId}.jsonl`), "utf8").catch(() => "");
}

export default async function PoliciesPage() {
  const { actor, prisma } = await requireAdminPage();
  const { active, bundles } = await listBundles(prisma, actor);
  let editorText = "";
  const views: BundleView[] = [];
  for (const b of bundles) {
    const { bundle, policies } = await getBundle(prisma, actor, b.sha256);
    if (!editorText && policies && (b.active || !active)) editorText = policies;
    views.push({
      sha256: b.sha256,
      policyCount: b.policyCount,
      ruleCount: bundle.bundle_metadata.rule_count,
      conflictCount: b.conflictCount,
      createdBy: b.createdBy,
      createdAt: b.createdAt.toISOString(),
      active: b.active,
      policyIds: bundle.bundle_metadata.policy_ids,
      conflicts: describeConflicts(bundle),
    });
  }
  if (!editorText) editorText = await demoPolicies(actor.tenantId);
  return (
    <>
      <PageHeading title="Answer policies" />
      <p className="text-sm text-slate-600">
        What an answer may say, and to whom. Policies compile into a bundle (Z3 checks every pair for conflicts); the active bundle is
        enforced on every answer of this tenant before it leaves, and answers it escalates wait in the supervisors&apos; review queue.
        Activation and deactivation are ledger entries with the bundle&apos;s SHA-256.
      </p>
      <Card
        title="Bundles"
        description={
          active ? (
            <>
              Active:{" "}
              <span className="font-mono text-xs" data-testid="active-bundle">
                {active.slice(0, 16)}…
              </span>
            </>
          ) : (
            "No bundle is active: answers are not checked against answer policies."
          )
        }
      >
        <BundleList bundles={views} />
      </Card>
      <Card
        title="Author policies"
        description="One policy per line (policies.jsonl). Write JSON, use the form to add a line, or upload a file; then compile."
      >
        <PolicyEditor initialText={editorText} />
      </Card>
    </>
  );
}
