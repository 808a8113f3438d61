// The flags answers carry about the lifecycle of the evidence they cite (issue 15), worded the same everywhere: revoked
// since it was cited (question history, the audit explorer, exports), and expired — a draft held for a supervisor
// (the review queue, its page, the CLI) and, once released, the delivered answer.
export function revocationFlag(evidenceId: string, r: { revokedAt: string; reason: string }): string {
  return `cites evidence revoked on ${r.revokedAt.slice(0, 10)} (${r.reason}): ${evidenceId}`;
}

/** Why a draft waits in the review queue when it rests on expired evidence: the dates its cited items expired. */
export function expiredHoldNote(expired: ReadonlyArray<{ expiredAt: string }>): string {
  const dates = [...new Set(expired.map((e) => e.expiredAt.slice(0, 10)))].sort();
  return `held: cites evidence expired on ${dates.join(", ")}`;
}

/** A released answer's flag for each expired item it cites, and who released it. */
export function expiredReleaseFlag(evidenceId: string, r: { expiredAt: string; releasedBy: string }): string {
  return `cites evidence expired on ${r.expiredAt.slice(0, 10)}, released by ${r.releasedBy}: ${evidenceId}`;
}
