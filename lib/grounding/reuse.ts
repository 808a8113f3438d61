// Answer reuse ("true reuse", seed 004 §6, issue 15). An earlier validated answer is returned again only when nothing
// it rests on has changed for this asker; otherwise the question is answered afresh (the "metadata-only fallback":
// only the key and the reason are kept). Every decision is a ledger entry (reuse_decision).
import { canonicalJson } from "../domain/canonical-json";
import { sha256Hex } from "../domain/ledger-chain";
import { evidenceDenialReason } from "../domain/policy";
import type { AnswerModel, EvidenceRecord } from "../ports";
import type { Asker } from "../graphrag/types";
import { contentSha256 } from "./lifecycle";
import type { StoredAnswer } from "./ports";
import type { KillSwitchState } from "./switches";

/** ANSWER_REUSE_MAX_AGE's default: 15 minutes. */
export const DEFAULT_REUSE_MAX_AGE_MS = 15 * 60_000;

export function normaliseQuestion(q: string): string {
  return q.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/** What the asker may see, as far as answers depend on it: two askers with different fingerprints never share answers. */
export function policyFingerprint(asker: Asker & { licenseUses?: readonly string[] }) {
  return {
    tenant: asker.tenantId,
    clearance: asker.clearance,
    needToKnow: [...new Set(asker.needToKnow)].sort(),
    licenseUses: [...new Set(asker.licenseUses ?? [])].sort(),
  };
}

/** The model as the reuse key names it: provider, id and revision ("offline:casegraph-extractive-v2@1a2b…"). */
export function modelKey(m: Pick<AnswerModel, "provider" | "modelId" | "revision"> | undefined): string | null {
  return m ? `${m.provider}:${m.modelId}${m.revision ? `@${m.revision}` : ""}` : null;
}

export interface ReuseKeyInput {
  caseId: string;
  question: string;
  asker: Asker & { licenseUses?: readonly string[] };
  model: string | null;
  promptVersion: string;
  groundingContractVersion: string;
  policyBundle: string | null;
  /**
   * A follow-up's thread context (issue 18): how its references were read, the earlier turns' items that seeded it
   * and the conversation shown. A follow-up therefore never shares a key with a question asked on its own.
   */
  thread?: { resolvedQuestion: string; seedIds: string[]; conversationSha256: string } | null;
}

/** SHA-256 (first 16 hex) of everything an answer depends on besides the evidence itself. */
export function reuseKey(k: ReuseKeyInput): string {
  return sha256Hex(
    canonicalJson({
      case: k.caseId,
      question: normaliseQuestion(k.question),
      fingerprint: policyFingerprint(k.asker),
      model: k.model,
      promptVersion: k.promptVersion,
      groundingContractVersion: k.groundingContractVersion,
      policyBundle: k.policyBundle,
      ...(k.thread
        ? {
            thread: {
              resolvedQuestion: normaliseQuestion(k.thread.resolvedQuestion),
              seedIds: [...new Set(k.thread.seedIds)].sort(),
              conversationSha256: k.thread.conversationSha256,
            },
          }
        : {}),
    }),
  ).slice(0, 16);
}

export type ReuseDenial =
  | "kill_switch"
  | "answer_too_old"
  | "citation_order"
  | "evidence_inactive_or_missing"
  | "evidence_changed"
  | "evidence_not_visible"
  | "graph_item_not_visible";

export type ReuseDecision = { granted: true } | { granted: false; reason: ReuseDenial; evidenceId?: string };

const sortedIds = (ids: readonly string[]) => ids.every((id, i) => i === 0 || ids[i - 1] < id);

/**
 * Every check of seed 004 §6, in a fixed order so the reason named is deterministic. `current` holds the cited items
 * as the store returns them now — active ones only (expired and revoked items are never returned). The graph's check
 * (`decideGraphReuse`) comes after these: it costs a read of the graph store, made only for an answer they grant.
 */
export function decideReuse(p: {
  stored: StoredAnswer;
  current: readonly EvidenceRecord[];
  asker: Asker;
  now: Date;
  maxAgeMs: number;
  switches: KillSwitchState;
}): ReuseDecision {
  if (p.switches.DISABLE_ANSWER_REUSE) return { granted: false, reason: "kill_switch" };
  const age = p.now.getTime() - Date.parse(p.stored.createdAt);
  if (!(age >= 0 && age < p.maxAgeMs)) return { granted: false, reason: "answer_too_old" };
  const ids = p.stored.cited.map((c) => c.id);
  if (!sortedIds(ids)) return { granted: false, reason: "citation_order" };
  const byId = new Map(p.current.map((e) => [e.id, e]));
  for (const c of p.stored.cited) {
    const now = byId.get(c.id);
    if (!now) return { granted: false, reason: "evidence_inactive_or_missing", evidenceId: c.id };
    if (contentSha256(now.content) !== c.contentSha256) return { granted: false, reason: "evidence_changed", evidenceId: c.id };
    if (evidenceDenialReason(p.asker, now) !== null) return { granted: false, reason: "evidence_not_visible", evidenceId: c.id };
  }
  return { granted: true };
}

/**
 * The last check: `cited` are the nodes and relationships the answer's steps cite, `visible` those of them the graph
 * holds now visible to this asker (a node re-marked above the asker's clearance since must not be named again).
 */
export function decideGraphReuse(graph: { cited: readonly string[]; visible: ReadonlySet<string> }): ReuseDecision {
  // Not named in the decision: the asker may no longer see that the item exists.
  if (graph.cited.some((id) => !graph.visible.has(id))) return { granted: false, reason: "graph_item_not_visible" };
  return { granted: true };
}
