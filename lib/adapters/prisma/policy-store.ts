// Answer policies in PostgreSQL/PGlite: the tenant's active bundle (loaded and checked once per hash, then kept in
// memory: a bundle never changes under its hash), the case's protected entities (nodes whose `protected` property is
// set — the graph's source of truth is PostgreSQL even when Neo4j serves the reads).
import "server-only";
import type { PrismaClient } from "../../generated/prisma/client";
import { loadBundle, type CompiledBundle } from "../../policy/bundle";
import type { ProtectedEntity } from "../../policy/detectors";
import type { AnswerPolicyStore } from "../../policy-ports";
import type { CaseScope } from "../../ports";

const loaded = new Map<string, CompiledBundle>();

/** A stored bundle, checked like a file (shape, hash, integrity) the first time it is read in this process. */
export function checkedBundle(sha256: string, json: unknown): CompiledBundle {
  const hit = loaded.get(sha256);
  if (hit) return hit;
  const bundle = loadBundle(json);
  if (bundle.bundle_metadata.sha256 !== sha256) return loadBundle({ ...bundle, bundle_metadata: { ...bundle.bundle_metadata, sha256 } }); // throws CG-POLICY-084
  if (loaded.size > 50) loaded.clear();
  loaded.set(sha256, bundle);
  return bundle;
}

export class PrismaAnswerPolicyStore implements AnswerPolicyStore {
  constructor(private readonly prisma: PrismaClient) {}

  async activeBundle(tenantId: string): Promise<CompiledBundle | null> {
    const active = await this.prisma.tenantAnswerPolicy.findUnique({ where: { tenantId }, select: { activeSha256: true } });
    if (!active?.activeSha256) return null;
    const cached = loaded.get(active.activeSha256);
    if (cached) return cached;
    const row = await this.prisma.policyBundle.findUnique({
      where: { tenantId_sha256: { tenantId, sha256: active.activeSha256 } },
      select: { bundle: true },
    });
    if (!row) return null;
    return checkedBundle(active.activeSha256, row.bundle);
  }

  async protectedEntities(scope: CaseScope): Promise<ProtectedEntity[]> {
    const rows = await this.prisma.$queryRaw<Array<{ id: string; name: string; category: unknown; aliases: unknown }>>`
      SELECT id, name, properties -> 'protected' AS category, properties -> 'aliases' AS aliases
        FROM graph_node
       WHERE case_id = ${scope.caseId} AND tenant_id = ${scope.tenantId}
         AND properties ? 'protected' AND properties -> 'protected' NOT IN ('false'::jsonb, 'null'::jsonb)
       ORDER BY id`;
    return rows.map((r) => ({
      id: r.id,
      category: typeof r.category === "string" && /^[a-z][a-z0-9_]*$/.test(r.category) ? r.category : "entity",
      names: [r.name, ...(Array.isArray(r.aliases) ? r.aliases.filter((a): a is string => typeof a === "string") : [])],
    }));
  }
}
