// The per-answer compliance artifact (issue 15): assembled from the answer's ledger entry (with an inclusion proof
// against a signed checkpoint), the cited evidence's digests and lifecycle state as stored now, and the provenance the
// entry binds. Read-only: a GET uses checkpoints already signed (CG-AUDIT-010 otherwise); the CLI may sign one.
import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import { evidenceStateSql } from "../../adapters/prisma/evidence-active";
import { CasegraphError } from "../../domain/failure-codes";
import { buildArtifact, type ArtifactEvidence, type ComplianceArtifact } from "../../grounding/artifact";
import type { Provenance } from "../../grounding/provenance";
import { AUDIT_KIND } from "../../graphrag/audit";
import type { AuditLedger } from "../../ports";
import { assertExportsAllowed } from "../runtime/kill-switches";
import { inclusionProofFor, type CheckpointMode } from "./proofs";

/** `tenantId`: the supervisor's tenant (only its requests); null for an operator at the CLI. */
export async function complianceArtifact(
  prisma: PrismaClient,
  ledger: AuditLedger,
  requestId: string,
  tenantId: string | null,
  mode: CheckpointMode,
): Promise<ComplianceArtifact> {
  if (!/^[A-Za-z0-9._:-]{1,200}$/.test(requestId)) throw new CasegraphError("CG-GROUND-030");
  const rows = await prisma.$queryRaw<Array<{ seq: bigint; tenant_id: string | null }>>`
    SELECT seq, tenant_id FROM "ledger" WHERE kind = ${AUDIT_KIND} AND payload->>'request_id' = ${requestId}
      ${tenantId === null ? Prisma.empty : Prisma.sql`AND tenant_id = ${tenantId}`}
    ORDER BY seq LIMIT 1`;
  if (!rows.length) throw new CasegraphError("CG-GROUND-030");
  await assertExportsAllowed(prisma, rows[0].tenant_id ?? "any tenant"); // DISABLE_EXPORTS, for the UI and the shell alike
  const proof = await inclusionProofFor(ledger, Number(rows[0].seq), undefined, mode);
  const payload = proof.entry.payload as Record<string, unknown>;
  const provenance = (payload.provenance ?? null) as Provenance | null;
  const caseId = typeof payload.case_id === "string" ? payload.case_id : null;
  const contextEvidence = new Set(Array.isArray(payload.context_evidence_ids) ? (payload.context_evidence_ids as string[]) : []);
  const ids =
    provenance?.sources ??
    (Array.isArray(payload.citation_ids) ? (payload.citation_ids as string[]).filter((id) => contextEvidence.has(id)) : []);
  return buildArtifact({
    requestId,
    proof,
    evidence: caseId
      ? await evidenceStates(prisma, caseId, ids)
      : ids.map((id) => ({ id, contentSha256: null, state: "missing" as const })),
    provenance,
    provenanceSha256: typeof payload.provenance_sha256 === "string" ? payload.provenance_sha256 : null,
    killSwitches: provenance?.killSwitches ?? null,
    policyBundle: provenance?.policyBundle ?? null,
    versions: {
      groundingContract: provenance?.groundingContractVersion ?? null,
      prompt: typeof payload.prompt_version === "string" ? payload.prompt_version : null,
    },
  });
}

async function evidenceStates(prisma: PrismaClient, caseId: string, ids: readonly string[]): Promise<ArtifactEvidence[]> {
  if (!ids.length) return [];
  const rows = await prisma.$queryRaw<
    Array<{
      id: string;
      content_sha256: string;
      state: "active" | "expired" | "revoked";
      revoked_at: Date | null;
      revoked_reason: string | null;
    }>
  >`
    SELECT e.id, e.content_sha256, ${evidenceStateSql("e")} AS state, e.revoked_at, e.revoked_reason
    FROM "evidence" e WHERE e.case_id = ${caseId} AND e.id = ANY(${[...ids]}::text[])`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return [...new Set(ids)].map((id) => {
    const r = byId.get(id);
    if (!r) return { id, contentSha256: null, state: "missing" as const };
    return {
      id,
      contentSha256: r.content_sha256,
      state: r.state,
      ...(r.revoked_at ? { revokedAt: r.revoked_at.toISOString(), revokedReason: r.revoked_reason ?? "" } : {}),
    };
  });
}
