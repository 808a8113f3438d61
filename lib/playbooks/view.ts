// What the model sees of a playbook: seed 003's four fields, nothing else. The labels were already applied by the
// filter; showing them would let the model reason about what the system decided (and cost tokens: see
// `npm run bench -- playbooks`, which compares this view with the rich one carrying every label).
import type { Candidate } from "./filter";
import type { Playbook } from "./catalogue";

export interface ModelPlaybook {
  playbook_id: string;
  version: string;
  description: string;
  confidence: number;
}

/** Confidence as the model and the caller see it: two decimals. */
export const roundConfidence = (c: number) => Math.round(c * 100) / 100;

export function modelView(candidates: readonly Candidate[]): ModelPlaybook[] {
  return candidates.map((c) => ({
    playbook_id: c.id,
    version: c.version,
    description: c.description,
    confidence: roundConfidence(c.confidence),
  }));
}

/** The rejected alternative (seed 003 "Alternative 1"): every label too. Used by the bench only, never sent. */
export function richView(p: Playbook, confidence: number) {
  return {
    playbook_id: p.id,
    version: p.version,
    description: p.description,
    case_types: p.caseTypes,
    jurisdictions: p.jurisdictions,
    required_authority: p.requiredAuthority,
    min_clearance: p.minClearance,
    risk_level: p.riskLevel,
    tenant: p.tenant,
    need_to_know: p.needToKnow,
    active: p.active,
    confidence: roundConfidence(confidence),
  };
}
