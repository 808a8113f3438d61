// Which of the case items named in ledger entries a reviewer may not see (lib/domain/audit-redaction.ts), decided by
// the same policy functions as the answer pipeline over the same stores (the case graph from Neo4j when configured,
// evidence from PostgreSQL). An id that names no item of the case (a model's invented citation) hides nothing.
import "server-only";
import { PrismaEvidenceStore } from "../../adapters/prisma/evidence-store";
import { PrismaGraphStore } from "../../adapters/prisma/graph-store";
import type { Database } from "../../adapters/prisma/db";
import { itemIdsOf, redactDocumentName, redactPayload, type RedactedPayload } from "../../domain/audit-redaction";
import { mayView, mayViewEvidence, type Viewer } from "../../domain/policy";
import { env } from "../../env";
import type { CaseGraphStore, EvidenceStore } from "../../ports";
import { configuredNeo4jStore } from "../runtime/graph";

export interface EntryRef {
  tenantId: string | null;
  caseId: string | null;
  payload: unknown;
}

export interface ReviewerStores {
  graph: CaseGraphStore;
  /** markingsByIds: every lifecycle state (a revoked item named in an old entry is still hidden from who may not see it). */
  evidence: EvidenceStore & Partial<Pick<PrismaEvidenceStore, "markingsByIds">>;
}

export function reviewerStores(db: Database): ReviewerStores {
  return { graph: configuredNeo4jStore(env()) ?? new PrismaGraphStore(db.prisma), evidence: new PrismaEvidenceStore(db.prisma) };
}

const key = (caseId: string, id: string) => `${caseId}\u0000${id}`;

/** A redactor for these entries: one lookup per case for every id they name, then a pure filter per entry. */
export async function reviewerRedactor(
  stores: ReviewerStores,
  viewer: Viewer,
  entries: readonly EntryRef[],
): Promise<(e: EntryRef) => RedactedPayload> {
  const idsByCase = new Map<string, { tenantId: string; ids: Set<string> }>();
  for (const e of entries) {
    if (!e.caseId || !e.tenantId) continue;
    const ids = itemIdsOf(payloadOf(e));
    if (!ids.length) continue;
    const slot = idsByCase.get(e.caseId) ?? { tenantId: e.tenantId, ids: new Set<string>() };
    ids.forEach((id) => slot.ids.add(id));
    idsByCase.set(e.caseId, slot);
  }
  const hidden = new Set<string>();
  for (const [caseId, { tenantId, ids }] of idsByCase) {
    const scope = { tenantId, caseId };
    const list = [...ids];
    const [nodes, edges, evidence] = await Promise.all([
      stores.graph.nodesByIds(scope, list),
      stores.graph.edgesByIds(scope, list),
      (stores.evidence.markingsByIds ?? stores.evidence.byIds).call(stores.evidence, scope, list),
    ]);
    for (const n of [...nodes, ...edges]) if (!mayView(viewer, n)) hidden.add(key(caseId, n.id));
    for (const ev of evidence) if (!mayViewEvidence(viewer, ev)) hidden.add(key(caseId, ev.id));
  }
  return (e) =>
    redactDocumentName(
      redactPayload(payloadOf(e), (id) => e.caseId !== null && hidden.has(key(e.caseId, id))),
      (m) => mayView(viewer, { tenantId: e.tenantId ?? "", classification: m.classification as never, needToKnow: m.needToKnow as never }),
    );
}

const payloadOf = (e: EntryRef) => (e.payload && typeof e.payload === "object" ? (e.payload as Record<string, unknown>) : {});
