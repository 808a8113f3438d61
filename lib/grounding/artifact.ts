// The per-answer compliance artifact (issue 15, seed 004 §10 "Exportability"): one JSON document about one answered
// request — its ledger entry with an inclusion proof against a signed checkpoint, the cited evidence with content
// digests and lifecycle state, the provenance, kill-switch state, policy bundle and versions — deterministically
// ordered (canonical JSON, pretty) and closed by the SHA-256 of everything else. verifyArtifact checks it offline and
// names the first thing that does not hold; one changed byte anywhere makes some check fail (the canonical form for
// whitespace, the digest for content, the proof and signature for the entry and the checkpoint).
import type { KeyObject } from "node:crypto";
import { canonicalJson, canonicalJsonPretty } from "../domain/canonical-json";
import { sha256Hex } from "../domain/ledger-chain";
import { verifyProofFile, type InclusionProofFile } from "../domain/ledger-proof";
import type { EvidenceState } from "./lifecycle";
import { provenanceSha256, type Provenance } from "./provenance";
import type { KillSwitchState } from "./switches";

export const ARTIFACT_FORMAT = "casegraph.artifact/v1";

export interface ArtifactEvidence {
  id: string;
  /** Null when the item no longer exists. */
  contentSha256: string | null;
  state: EvidenceState | "missing";
  revokedAt?: string;
  revokedReason?: string;
}

export interface ComplianceArtifact {
  format: typeof ARTIFACT_FORMAT;
  requestId: string;
  proof: InclusionProofFile;
  evidence: ArtifactEvidence[];
  provenance: Provenance | null;
  provenanceSha256: string | null;
  killSwitches: KillSwitchState | null;
  policyBundle: string | null;
  versions: { groundingContract: string | null; prompt: string | null };
  /** SHA-256 of the canonical JSON of every other field. */
  digest: string;
}

export function buildArtifact(
  parts: Omit<ComplianceArtifact, "format" | "digest" | "evidence"> & { evidence: readonly ArtifactEvidence[] },
): ComplianceArtifact {
  const body = {
    ...parts,
    format: ARTIFACT_FORMAT,
    evidence: [...parts.evidence].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  } as Omit<ComplianceArtifact, "digest">;
  return { ...body, digest: sha256Hex(canonicalJson(body)) };
}

/** The file's bytes: canonical pretty JSON. */
export function renderArtifact(a: ComplianceArtifact): string {
  return canonicalJsonPretty(a);
}

export interface ArtifactReport {
  ok: boolean;
  /** The first check that failed, by name, with what did not hold. */
  firstFailure?: { check: string; detail: string };
  checks: Array<{ name: string; ok: boolean; detail?: string }>;
}

/** Offline check of an artifact file's text. `publicKey`: the deployment's checkpoint key, if the checker has it. Never throws. */
export function verifyArtifact(text: string, publicKey?: KeyObject): ArtifactReport {
  const checks: ArtifactReport["checks"] = [];
  try {
    return checkArtifact(text, checks, publicKey);
  } catch {
    // A mangled field the checks cannot even read: the structure is what does not hold.
    checks.push({ name: "structure", ok: false, detail: "a field has the wrong type" });
    const bad = checks.find((c) => !c.ok)!;
    return { ok: false, firstFailure: { check: bad.name, detail: bad.detail ?? "does not hold" }, checks };
  }
}

function checkArtifact(text: string, checks: ArtifactReport["checks"], publicKey?: KeyObject): ArtifactReport {
  const done = () => {
    const bad = checks.find((c) => !c.ok);
    return { ok: !bad, ...(bad ? { firstFailure: { check: bad.name, detail: bad.detail ?? "does not hold" } } : {}), checks };
  };
  let a: ComplianceArtifact;
  try {
    a = JSON.parse(text);
  } catch {
    checks.push({ name: "format", ok: false, detail: "not JSON" });
    return done();
  }
  const shapeOk =
    !!a &&
    typeof a === "object" &&
    a.format === ARTIFACT_FORMAT &&
    typeof a.requestId === "string" &&
    !!a.proof &&
    Array.isArray(a.evidence);
  checks.push({ name: "format", ok: shapeOk, detail: shapeOk ? ARTIFACT_FORMAT : `not a ${ARTIFACT_FORMAT} document` });
  if (!shapeOk) return done();
  const canonical = canonicalJsonPretty(a) === text;
  checks.push({
    name: "canonical form",
    ok: canonical,
    detail: canonical ? undefined : "the file is not in canonical form (bytes were changed outside the values)",
  });
  const { digest, ...body } = a;
  const digestOk = sha256Hex(canonicalJson(body)) === digest;
  checks.push({ name: "artifact digest", ok: digestOk, detail: digestOk ? digest : "the content does not hash to the artifact's digest" });

  const proof = verifyProofFile(a.proof, publicKey);
  for (const c of proof.checks) checks.push({ name: `proof: ${c.name}`, ok: c.ok, detail: c.detail });

  const payload = (a.proof.entry?.payload ?? {}) as Record<string, unknown>;
  const requestOk = payload.request_id === a.requestId;
  checks.push({ name: "request id", ok: requestOk, detail: requestOk ? a.requestId : "the ledger entry is about another request" });
  const provOk =
    a.provenance !== null &&
    a.provenanceSha256 === provenanceSha256(a.provenance) &&
    payload.provenance_sha256 === a.provenanceSha256 &&
    canonicalJson(payload.provenance) === canonicalJson(a.provenance);
  checks.push({
    name: "provenance hash",
    ok: provOk,
    detail: provOk ? a.provenanceSha256! : "the provenance does not match the SHA-256 in the ledger entry",
  });
  const sources = a.provenance?.sources ?? [];
  const ids = a.evidence.map((e) => e.id);
  const evidenceOk = sources.every((s) => ids.includes(s)) && ids.every((id, i) => i === 0 || ids[i - 1] < id);
  checks.push({
    name: "evidence list",
    ok: evidenceOk,
    detail: evidenceOk ? `${ids.length} item(s)` : "the cited evidence is not listed, or not in order",
  });
  const switchesOk = canonicalJson(a.killSwitches) === canonicalJson(a.provenance?.killSwitches ?? null);
  checks.push({
    name: "kill switches",
    ok: switchesOk,
    detail: switchesOk ? undefined : "the kill-switch state differs from the provenance's",
  });
  const versionsOk =
    a.versions.prompt === (payload.prompt_version ?? null) &&
    a.versions.groundingContract === (a.provenance?.groundingContractVersion ?? null) &&
    a.policyBundle === (a.provenance?.policyBundle ?? null);
  checks.push({
    name: "versions",
    ok: versionsOk,
    detail: versionsOk ? undefined : "the versions or policy bundle differ from the ledger entry's",
  });
  return done();
}
