// Provenance on every answer (issue 15, seed 004 §10): how the answer came about, shown as a footer under it in the
// workbench, included in exports, and hashed into its ledger entry (provenance_sha256).
import { canonicalJson } from "../domain/canonical-json";
import { sha256Hex } from "../domain/ledger-chain";
import { PROVENANCE_FOOTER_HEADER } from "./lifecycle";
import type { KillSwitchState } from "./switches";

/**
 * The grounding contract this build enforces (seed 004's contract version); part of the reuse key, so an answer
 * validated under an earlier contract is answered afresh, not reused. 1.1.0: links and images in model text, the
 * model's unknowns, justification and refusal reason, a time's date, a transcript's speaker and quotations checked.
 * 1.2.0: hidden characters (tag characters among them) stripped from evidence and model text; an unknown naming what
 * neither the evidence shown nor the question holds removed; a verb and its particle read as one word.
 */
export const GROUNDING_CONTRACT_VERSION = "casegraph-grounding/1.2.0";

export interface Provenance {
  mode: "normal" | "reused";
  reusedFrom?: string;
  /** The reuse key (16 hex): case, normalised question, the asker's policy fingerprint, model, versions, policy bundle. */
  queryHash: string;
  evidenceCount: number;
  /** The cited evidence ids, sorted. */
  sources: string[];
  timestamp: string;
  groundingContractVersion: string;
  promptVersion: string;
  model: string | null;
  policyBundle?: string;
  killSwitches: KillSwitchState;
}

export function provenanceOf(p: {
  mode: Provenance["mode"];
  reusedFrom?: string;
  queryHash: string;
  citedIds: readonly string[];
  timestamp: string;
  promptVersion: string;
  model: string | null;
  policyBundle?: string | null;
  killSwitches: KillSwitchState;
}): Provenance {
  const sources = [...new Set(p.citedIds)].sort();
  return {
    mode: p.mode,
    ...(p.reusedFrom ? { reusedFrom: p.reusedFrom } : {}),
    queryHash: p.queryHash,
    evidenceCount: sources.length,
    sources,
    timestamp: p.timestamp,
    groundingContractVersion: GROUNDING_CONTRACT_VERSION,
    promptVersion: p.promptVersion,
    model: p.model,
    ...(p.policyBundle ? { policyBundle: p.policyBundle } : {}),
    killSwitches: {
      DISABLE_ANSWER_REUSE: p.killSwitches.DISABLE_ANSWER_REUSE,
      DISABLE_EXPORTS: p.killSwitches.DISABLE_EXPORTS,
      DISABLE_MODEL: p.killSwitches.DISABLE_MODEL,
    },
  };
}

export function provenanceSha256(p: Provenance): string {
  return sha256Hex(canonicalJson(p));
}

const on = (s: KillSwitchState) =>
  Object.entries(s)
    .filter(([, v]) => v)
    .map(([k]) => k)
    .sort();

/** The footer as text (exports, the CLI); the workbench renders the same fields. */
export function provenanceFooter(p: Provenance): string {
  return [
    `--- ${PROVENANCE_FOOTER_HEADER} ---`,
    `Mode: ${p.mode === "reused" ? `reused (from request ${p.reusedFrom})` : "normal"}`,
    `Query hash: ${p.queryHash}`,
    `Evidence count: ${p.evidenceCount}`,
    `Sources: ${p.sources.length ? p.sources.join(", ") : "none"}`,
    `Timestamp: ${p.timestamp}`,
    `Grounding contract: ${p.groundingContractVersion}; prompt: ${p.promptVersion}; model: ${p.model ?? "none"}${p.policyBundle ? `; policy bundle: ${p.policyBundle}` : ""}`,
    `Kill switches on: ${on(p.killSwitches).join(", ") || "none"}`,
  ].join("\n");
}
