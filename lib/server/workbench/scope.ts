// Opens a case for a workbench request: the case-access check (member, same tenant, deny by default) and the stores
// this process reads — the case graph from Neo4j when NEO4J_URI is set (else the PostgreSQL tables), evidence from
// PostgreSQL — so the workbench reads exactly what the answer pipeline reads.
import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { PrismaEvidenceStore } from "@/lib/adapters/prisma/evidence-store";
import { PrismaGraphStore } from "@/lib/adapters/prisma/graph-store";
import { env } from "@/lib/env";
import type { CaseGraphStore, CaseScope, EvidenceStore } from "@/lib/ports";
import { assertCaseAccess, type CaseRecord } from "../case-access";
import { configuredNeo4jStore } from "../graph";
import { runtime } from "../runtime";

export interface OpenCase {
  prisma: Awaited<ReturnType<typeof runtime>>["db"]["prisma"];
  record: CaseRecord;
  scope: CaseScope;
  graph: CaseGraphStore;
  evidence: EvidenceStore;
}

export async function openCase(actor: Actor, caseId: string): Promise<OpenCase> {
  const { db } = await runtime();
  const record: CaseRecord = await assertCaseAccess(db.prisma, actor, caseId);
  return {
    prisma: db.prisma,
    record,
    scope: { tenantId: record.tenantId, caseId: record.id },
    graph: configuredNeo4jStore(env()) ?? new PrismaGraphStore(db.prisma),
    evidence: new PrismaEvidenceStore(db.prisma),
  };
}
