// The flag earlier answers carry when evidence they cite has been revoked since (issue 15): shown in question history,
// the audit explorer and exports, worded the same everywhere.
export function revocationFlag(evidenceId: string, r: { revokedAt: string; reason: string }): string {
  return `cites evidence revoked on ${r.revokedAt.slice(0, 10)} (${r.reason}): ${evidenceId}`;
}
