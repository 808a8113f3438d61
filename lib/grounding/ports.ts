// The grounding controls' ports (issue 15), next to lib/ports.ts: kill switches and the reusable-answer store (held
// drafts wait in the review queue, lib/ports.ts). Adapters: lib/adapters/prisma/grounding.ts; wiring:
// lib/server/answers/grounding.ts.
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
