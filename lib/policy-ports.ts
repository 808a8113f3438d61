// The answer-policy ports (issue 14): where the enforcement step gets the tenant's active bundle and the case's
// protected entities, and the solver it decides rules with (escalated drafts wait in the review queue, lib/ports.ts).
// Adapters: lib/adapters/prisma/policy-store.ts, lib/adapters/solver/z3.ts; wiring in lib/server/answers/graphrag.ts.
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

export interface AnswerPolicyPorts {
  store: AnswerPolicyStore;
  solver: PolicySolver;
}
