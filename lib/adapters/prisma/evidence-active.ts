// The one SQL statement of "active evidence" (issue 15, lib/grounding/lifecycle.ts evidenceState): not revoked, not
// past its valid_until, not older than its tenant's maximum age for its type. Every store read of evidence that can
// reach a user or a model ANDs this into its WHERE clause, so expired and revoked items cannot be retrieved, shown,
// cited or reused through any entry point. The one exception is explicit (EvidenceReadOptions.lifecycle, lifecycleSql
// below): a draft from expired evidence, which is held until a supervisor releases it; revoked items are never read.
// (The case graph in Neo4j holds no evidence: evidence is read from PostgreSQL whichever graph store is configured,
// so this is the only place the rule has to live.)
import { Prisma } from "../../generated/prisma/client";
import type { EvidenceLifecycle } from "../../ports";

function rawAlias(alias: string): Prisma.Sql {
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`bad alias ${alias}`);
  return Prisma.raw(alias);
}

/** `alias` is the evidence row's alias in the surrounding query (a trusted identifier, never user input). */
export function activeEvidenceSql(alias: string): Prisma.Sql {
  const a = rawAlias(alias);
  return Prisma.sql`(${a}.revoked_at IS NULL
    AND (${a}.valid_until IS NULL OR ${a}.valid_until > now())
    AND NOT EXISTS (
      SELECT 1 FROM "tenant" lt
      WHERE lt.id = ${a}.tenant_id AND lt.evidence_max_age_days ? ${a}.type
        AND ${a}.collected_at + make_interval(days => (lt.evidence_max_age_days ->> ${a}.type)::float8::int) <= now()))`;
}

/** The same rule as a CASE expression naming the state, for views that show it (artifacts, history flags). */
export function evidenceStateSql(alias: string): Prisma.Sql {
  const a = rawAlias(alias);
  return Prisma.sql`CASE WHEN ${a}.revoked_at IS NOT NULL THEN 'revoked' WHEN ${activeEvidenceSql(alias)} THEN 'active' ELSE 'expired' END`;
}

/**
 * A read's lifecycle predicate (EvidenceReadOptions): active items (the default, every other read), expired ones, or
 * either. Revoked items match none of them.
 */
export function lifecycleSql(alias: string, lifecycle: EvidenceLifecycle = "active"): Prisma.Sql {
  if (lifecycle === "active") return activeEvidenceSql(alias);
  const a = rawAlias(alias);
  if (lifecycle === "active_or_expired") return Prisma.sql`(${a}.revoked_at IS NULL)`;
  return Prisma.sql`(${a}.revoked_at IS NULL AND NOT ${activeEvidenceSql(alias)})`;
}

/**
 * The `expired_at` column of a read that admits expired items: when an expired item stopped being active (the earlier
 * of valid_until and collected_at plus the tenant's maximum age for its type, by the same arithmetic as
 * activeEvidenceSql); NULL for active items. Nothing for an active-only read, so those statements are unchanged.
 */
export function expiredAtColumn(alias: string, lifecycle: EvidenceLifecycle = "active"): Prisma.Sql {
  if (lifecycle === "active") return Prisma.empty;
  const a = rawAlias(alias);
  const expiry = Prisma.sql`LEAST(${a}.valid_until, (
      SELECT ${a}.collected_at + make_interval(days => (lt.evidence_max_age_days ->> ${a}.type)::float8::int)
      FROM "tenant" lt WHERE lt.id = ${a}.tenant_id AND lt.evidence_max_age_days ? ${a}.type))`;
  return lifecycle === "expired"
    ? Prisma.sql`, ${expiry} AS expired_at`
    : Prisma.sql`, CASE WHEN ${activeEvidenceSql(alias)} THEN NULL ELSE ${expiry} END AS expired_at`;
}
