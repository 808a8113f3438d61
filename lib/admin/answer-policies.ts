// Answer policies for the admin's own tenant (issue 14): store a compiled bundle (from the editor, an upload or the
// CLI), activate one, deactivate. Each is a ledger entry naming the bundle's SHA-256, committed with the change.
import type { PrismaClient } from "../generated/prisma/client";
import { checkedBundle } from "../adapters/prisma/policy-store";
import { Z3PolicySolver } from "../adapters/solver/z3";
import type { Actor } from "../auth/actor";
import { CasegraphError } from "../domain/failure-codes";
import type { CompiledBundle } from "../policy/bundle";
import { compilePolicies, compileSummary } from "../policy/compile";
import { parsePoliciesJsonl } from "../policy/schema";
import { auditedChange, changeActorOf, tenantOf, type ChangeActor, type Tx } from "./change";

export interface BundleListing {
  sha256: string;
  policyCount: number;
  conflictCount: number;
  createdBy: string;
  createdAt: Date;
  active: boolean;
  hasPolicies: boolean;
}

export async function listBundlesOf(prisma: PrismaClient, tenantId: string): Promise<{ active: string | null; bundles: BundleListing[] }> {
  const [active, rows] = await Promise.all([
    prisma.tenantAnswerPolicy.findUnique({ where: { tenantId }, select: { activeSha256: true } }),
    prisma.policyBundle.findMany({
      where: { tenantId },
      orderBy: [{ createdAt: "desc" }, { sha256: "asc" }],
      select: { sha256: true, policyCount: true, conflictCount: true, createdBy: true, createdAt: true, policies: true },
    }),
  ]);
  const activeSha = active?.activeSha256 ?? null;
  return {
    active: activeSha,
    bundles: rows.map(({ policies, ...r }) => ({ ...r, active: r.sha256 === activeSha, hasPolicies: policies !== null })),
  };
}

export async function listBundles(prisma: PrismaClient, actor: Actor) {
  return listBundlesOf(prisma, tenantOf(changeActorOf(actor)));
}

export async function getBundle(prisma: PrismaClient, actor: Actor, sha256: string) {
  const tenantId = tenantOf(changeActorOf(actor));
  const row = await prisma.policyBundle.findUnique({ where: { tenantId_sha256: { tenantId, sha256 } } });
  if (!row) throw new CasegraphError("CG-POLICY-089");
  return { bundle: checkedBundle(sha256, row.bundle), policies: row.policies, createdBy: row.createdBy, createdAt: row.createdAt };
}

async function store(tx: Tx, tenantId: string, bundle: CompiledBundle, policies: string | null, by: string): Promise<boolean> {
  const sha256 = bundle.bundle_metadata.sha256;
  const existing = await tx.policyBundle.findUnique({ where: { tenantId_sha256: { tenantId, sha256 } }, select: { sha256: true } });
  if (existing) return false;
  await tx.policyBundle.create({
    data: {
      tenantId,
      sha256,
      bundle: bundle as object,
      policies,
      policyCount: bundle.bundle_metadata.policy_count,
      conflictCount: bundle.bundle_metadata.conflict_count,
      createdBy: by,
    },
  });
  return true;
}

const bundleFacts = (b: CompiledBundle) => ({
  sha256: b.bundle_metadata.sha256,
  policyCount: b.bundle_metadata.policy_count,
  conflictCount: b.bundle_metadata.conflict_count,
});

/** Compiles policies.jsonl text (the editor, an upload) and stores the bundle for the tenant. Activation is separate. */
export async function compileAndStore(prisma: PrismaClient, actor: Actor, policiesText: string) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  const bundle = await compilePolicies(parsePoliciesJsonl(policiesText), new Z3PolicySolver());
  await auditedChange(prisma, who, async (tx) => {
    const added = await store(tx, tenantId, bundle, policiesText, who.email);
    return {
      result: added,
      audit: added
        ? {
            kind: "admin.policy.bundle_add",
            target: { type: "policy_bundle", id: bundle.bundle_metadata.sha256, tenantId },
            before: null,
            after: bundleFacts(bundle),
          }
        : null,
    };
  });
  return compileSummary(bundle);
}

async function setActive(prisma: PrismaClient, who: ChangeActor, tenantId: string, sha256: string | null, bundle?: CompiledBundle) {
  return auditedChange(prisma, who, async (tx) => {
    if (bundle) await store(tx, tenantId, bundle, null, who.email);
    if (sha256 && !(await tx.policyBundle.findUnique({ where: { tenantId_sha256: { tenantId, sha256 } }, select: { sha256: true } })))
      throw new CasegraphError("CG-POLICY-089");
    const before = await tx.tenantAnswerPolicy.findUnique({ where: { tenantId }, select: { activeSha256: true } });
    const prior = before?.activeSha256 ?? null;
    const result = { tenantId, active: sha256 };
    if (prior === sha256) return { result, audit: null };
    await tx.tenantAnswerPolicy.upsert({
      where: { tenantId },
      create: { tenantId, activeSha256: sha256, changedBy: who.email },
      update: { activeSha256: sha256, changedBy: who.email, changedAt: new Date() },
    });
    return {
      result,
      audit: {
        kind: sha256 ? "admin.policy.activate" : "admin.policy.deactivate",
        target: { type: "answer_policy", id: tenantId, tenantId },
        before: { bundleSha256: prior },
        after: { bundleSha256: sha256 },
      },
    };
  });
}

export async function activateBundle(prisma: PrismaClient, actor: Actor, sha256: string) {
  const who = changeActorOf(actor);
  return setActive(prisma, who, tenantOf(who), sha256);
}

export async function deactivateBundle(prisma: PrismaClient, actor: Actor) {
  const who = changeActorOf(actor);
  return setActive(prisma, who, tenantOf(who), null);
}

/** CLI: `policy activate --tenant <id> <bundle.json> --by <admin email>` — the named admin of that tenant is the actor. */
export async function activateAsOperator(prisma: PrismaClient, tenantId: string, bundle: CompiledBundle, by: ChangeActor) {
  return setActive(prisma, by, tenantId, bundle.bundle_metadata.sha256, bundle);
}

export async function deactivateAsOperator(prisma: PrismaClient, tenantId: string, by: ChangeActor) {
  return setActive(prisma, by, tenantId, null);
}
