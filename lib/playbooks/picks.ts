// The model's only task: pick up to three of the playbooks it was offered, each with a one-line reason that cites the
// evidence the answer rests on. Its output is read strictly: anything that is not such a pick — an id it was not
// offered, a version that differs, a field it was not asked for (labels, risk, an "action"), free text — is dropped
// and counted by kind, for the ledger. What is left is checked once more against the filter, re-run (suggest.ts).
import { z } from "zod";
import { HIDDEN_CHARACTERS } from "../domain/display-text";
import { hasLinkOrAddress } from "../graphrag/links";
import type { ModelPlaybook } from "./view";

export const MAX_PICKS = 3;
export const MAX_REASON_CHARS = 300;
export const PICK_PROMPT_VERSION = "playbook_pick_v1";

export const PICK_SYSTEM_PROMPT = [
  "You help investigators choose their next investigative step from their agency's playbook catalogue.",
  "You receive the investigator's question, the ids of the evidence the last answer rests on, and a list of playbooks",
  "(playbook_id, version, description, confidence) that already fit the case, the investigator and the agency's rules.",
  `Pick at most ${MAX_PICKS} of THOSE playbooks, best first; prefer higher confidence. Never invent a playbook, never`,
  "describe an action in your own words, never add fields. For each pick give a one-line reason (at most",
  `${MAX_REASON_CHARS} characters) and the ids of the evidence it relies on, taken only from the evidence ids given.`,
  "Nothing you pick is carried out: a person proposes it and a supervisor decides.",
  'Answer with JSON only: {"picks":[{"playbook_id":"…","version":"…","reason":"…","citations":["EV-…"]}]}',
].join("\n");

/** The structured-output schema sent to generative models (what we ask for, not what we accept: see readPicks). */
export const picksSchema = z.object({
  picks: z
    .array(
      z.object({
        playbook_id: z.string(),
        version: z.string(),
        reason: z.string(),
        citations: z.array(z.string()),
      }),
    )
    .max(MAX_PICKS),
});

export function pickPrompt(question: string, evidenceIds: readonly string[], playbooks: readonly ModelPlaybook[]): string {
  return JSON.stringify({ question, evidence_ids: evidenceIds, playbooks });
}

export const DROP_KINDS = [
  "unparseable",
  "free_text",
  "extra_field",
  "not_offered",
  "version_mismatch",
  "bad_reason",
  "duplicate",
  "over_limit",
  "not_in_filter",
] as const;
export type DropKind = (typeof DROP_KINDS)[number];

export interface ReadPick {
  playbookId: string;
  version: string;
  reason: string;
  citations: string[];
}

export interface PickReport {
  picks: ReadPick[];
  dropped: Record<DropKind, number>;
  /** Citations removed because they named evidence not among the ids given. */
  invalidCitations: number;
  /** Ids the model named that were not offered (for the ledger: unknown, or filtered out). */
  notOfferedIds: string[];
}

const PICK_KEYS = new Set(["playbook_id", "version", "reason", "citations"]);
const NOT_PLAIN = new RegExp(`${HIDDEN_CHARACTERS}|[\\t\\n\\r]`, "u");
/** One line of plain text: no line break, tab, control or invisible character (a pick's or a proposal's reason). */
export const isPlainLine = (text: string) => !NOT_PLAIN.test(text);

export function emptyDrops(): Record<DropKind, number> {
  return Object.fromEntries(DROP_KINDS.map((k) => [k, 0])) as Record<DropKind, number>;
}

/** Reads the model's raw text against what it was offered and the evidence ids it was given. Never throws. */
export function readPicks(text: string, offered: readonly ModelPlaybook[], evidenceIds: readonly string[]): PickReport {
  const report: PickReport = { picks: [], dropped: emptyDrops(), invalidCitations: 0, notOfferedIds: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripFence(text));
  } catch {
    report.dropped.unparseable++;
    return report;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed) || !Array.isArray((parsed as { picks?: unknown }).picks)) {
    // Prose, a bare list, {"action": "…"}: nothing is a pick.
    report.dropped.free_text++;
    return report;
  }
  // Fields beside `picks` ("recommendation", "next_action", …) are model-invented content: counted, never read.
  report.dropped.extra_field += Object.keys(parsed).filter((k) => k !== "picks").length;
  const byId = new Map(offered.map((p) => [p.playbook_id, p]));
  const allowedEvidence = new Set(evidenceIds);
  const seen = new Set<string>();
  for (const raw of (parsed as { picks: unknown[] }).picks) {
    if (!raw || typeof raw !== "object" || Array.isArray(raw) || typeof (raw as { playbook_id?: unknown }).playbook_id !== "string") {
      report.dropped.free_text++;
      continue;
    }
    const pick = raw as Record<string, unknown>;
    if (Object.keys(pick).some((k) => !PICK_KEYS.has(k))) {
      report.dropped.extra_field++;
      continue;
    }
    const id = pick.playbook_id as string;
    const offer = byId.get(id);
    if (!offer) {
      report.dropped.not_offered++;
      if (report.notOfferedIds.length < 20) report.notOfferedIds.push(id.slice(0, 120));
      continue;
    }
    if (pick.version !== undefined && pick.version !== offer.version) {
      report.dropped.version_mismatch++;
      continue;
    }
    const reason = typeof pick.reason === "string" ? pick.reason.trim() : "";
    // A reason is one line of words: a link or an image in it is a way out of the case (links.ts).
    if (!reason || reason.length > MAX_REASON_CHARS || !isPlainLine(reason) || hasLinkOrAddress(reason)) {
      report.dropped.bad_reason++;
      continue;
    }
    if (seen.has(id)) {
      report.dropped.duplicate++;
      continue;
    }
    if (report.picks.length >= MAX_PICKS) {
      report.dropped.over_limit++;
      continue;
    }
    seen.add(id);
    const cited = Array.isArray(pick.citations) ? pick.citations : [];
    const citations = [...new Set(cited.filter((c): c is string => typeof c === "string" && allowedEvidence.has(c)))];
    report.invalidCitations += cited.length - cited.filter((c) => typeof c === "string" && allowedEvidence.has(c)).length;
    report.picks.push({ playbookId: id, version: offer.version, reason, citations });
  }
  return report;
}

/** A model that wraps its JSON in a Markdown fence still answered JSON. */
function stripFence(text: string): string {
  const m = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(text);
  return m ? m[1] : text;
}

/**
 * The offline picker (`casegraph-playbook-picker-v1`): the three playbooks of highest confidence, in the order offered,
 * each with a reason that names its confidence and the evidence the answer rests on. Deterministic; needs no model.
 */
export function offlinePicks(evidenceIds: readonly string[], offered: readonly ModelPlaybook[]) {
  const cites = evidenceIds.slice(0, 3);
  const basis = cites.length ? `; the answer rests on ${cites.join(", ")}` : "";
  return {
    picks: [...offered]
      .sort((a, b) => b.confidence - a.confidence || (a.playbook_id < b.playbook_id ? -1 : a.playbook_id > b.playbook_id ? 1 : 0))
      .slice(0, MAX_PICKS)
      .map((p) => ({
        playbook_id: p.playbook_id,
        version: p.version,
        reason: `Fits this case's labels and your permissions, confidence ${p.confidence.toFixed(2)}${basis}.`,
        citations: cites,
      })),
  };
}
