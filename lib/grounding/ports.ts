// The grounding controls' ports (issue 15), next to lib/ports.ts: kill switches, the reusable-answer store and the
// held-request queue overrides release. Adapters: lib/adapters/prisma/grounding.ts; wiring: lib/server/grounding.ts.
import type { KillSwitchState } from "./switches";

export interface KillSwitchReader {
  /** The effective state for a tenant (its own rows and the deployment's), read once per request. */
  read(tenantId: string): Promise<KillSwitchState>;
}

/** One cited evidence item as it was when the answer was given. */
export interface CitedEvidence {
  id: string;
  contentSha256: string;
}

export interface StoredAnswer {
  reuseKey: string;
  requestId: string;
  tenantId: string;
  caseId: string;
  /** ISO-8601: when the answer was given. */
  createdAt: string;
  /** The delivered { answer, rawContext } (without provenance), as validated then. */
  body: { answer: Record<string, unknown>; rawContext: unknown };
  /** Cited evidence in the order recorded (sorted by id when stored). */
  cited: CitedEvidence[];
}

export interface AnswerCache {
  /** The newest stored answer for a key, if any. */
  latest(reuseKey: string): Promise<StoredAnswer | null>;
  put(answer: StoredAnswer): Promise<void>;
}

/**
 * A request held back from its asker until someone with authority releases it: an expired-evidence refusal here, an
 * escalated or withheld answer from the answer policies (issue 14) through the same interface. Releasing never
 * changes identities, clearances or policies: it only lets the held result out.
 */
export interface HeldRequest {
  id: string;
  kind: string;
  tenantId: string;
  caseId: string | null;
  state: "held" | "released";
}

export interface HeldRequests {
  find(id: string): Promise<HeldRequest | null>;
  /** Marks it released (idempotent per id: a second release is CG-GROUND-026). */
  release(id: string, by: { kind: "override" | "supervisor"; ref: string }): Promise<void>;
}
