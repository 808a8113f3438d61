// The answer-policy ports (issue 14): where the enforcement step gets the tenant's active bundle and the case's
// protected entities, the solver it decides rules with, and the review queue escalated answers wait in. Adapters:
// lib/adapters/prisma/policy-store.ts, lib/adapters/solver/z3.ts; wiring in lib/server/answers/graphrag.ts.
import type { CompiledBundle } from "./policy/bundle";
import type { ProtectedEntity } from "./policy/detectors";
import type { PolicySolver } from "./policy/solver";
import type { CaseScope } from "./ports";

export interface AnswerPolicyStore {
  /** The tenant's active bundle, loaded and integrity-checked (CG-POLICY-08x when the stored one fails), or null. */
  activeBundle(tenantId: string): Promise<CompiledBundle | null>;
  /** Nodes of the case whose `protected` property is set (their category), with their names and aliases. */
  protectedEntities(scope: CaseScope): Promise<ProtectedEntity[]>;
}

export interface HeldAnswer {
  id: string;
  tenantId: string;
  caseId: string;
  askerId: string;
  askerEmail: string | null;
  requestId: string;
  auditId: string;
  question: string;
  bundleSha256: string;
  /** { answer, rawContext } as it would have been delivered. */
  draft: unknown;
  compliance: unknown;
}

export interface ReviewQueue {
  hold(held: HeldAnswer): Promise<void>;
  /** Takes a held draft back out (its answer's ledger entry could not be written: an unaudited draft is never reviewed). */
  discard(id: string): Promise<void>;
}

export interface AnswerPolicyPorts {
  store: AnswerPolicyStore;
  solver: PolicySolver;
  reviews: ReviewQueue;
}
