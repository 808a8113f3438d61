// What the admin and review pages show of answer-policy bundles (shared by server pages and client components).

export interface ConflictView {
  policies: [string, string];
  action: string;
  /** "MPD-FIN-002 prohibits … while MPD-FIN-003 requires it, for example when …" */
  sentence: string;
  resolution: string;
}

export interface BundleView {
  sha256: string;
  policyCount: number;
  ruleCount: number;
  conflictCount: number;
  createdBy: string;
  createdAt: string;
  active: boolean;
  policyIds: string[];
  conflicts: ConflictView[];
}
