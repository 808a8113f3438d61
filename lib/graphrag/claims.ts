// The answer text's claims, as validation and the support checks (ground.ts) read them: citation markers in any of
// the forms models use are lifted out of the text, the text is split into sentences, and each sentence into the
// clauses its markers close. One lexer, shared by validate.ts, ground.ts and the offline answerer's self-check.
//
// Binding rules (issue 13 §1):
// - A clause is the text from the previous marker group (or the sentence start) up to a marker group; it is bound to
//   the markers of that group and to no other. "A [evidence: EV-1], and B [evidence: EV-99]." is two clauses, A ← EV-1
//   and B ← EV-99, so B is removed when EV-99 is invalid even though the sentence also carries a valid marker.
// - Markers that follow a sentence's full stop belong to that sentence's last clause ("A. [EV-1]").
// - Text after a sentence's last marker group ("A [EV-1] and B.") belongs to the clause that group closes: it is
//   checked against those markers' evidence as one claim ("A and B").
// - Markers that open the answer, before any text, bind to the first clause.
// - A sentence without markers is one clause with no markers (uncited).
import { isIdLike, splitSentences } from "./text";

const MARKER = /\[\s*(?:evidence|evid)\s*[:=]\s*([^\]\n]{1,500})\]/giu;
const GRAPH_MARKER = /\[\s*(?:node|edge|nodes|edges)\s*[:=]\s*([^\]\n]{1,500})\]/giu;
const BARE_MARKER = /\[\s*([^\]\s,;[]{2,120}(?:\s*[,;]\s*[^\]\s,;[]{2,120}){0,9})\s*\]/gu;
const PH_OPEN = "\ue000",
  PH_CLOSE = "\ue001";
const PLACEHOLDER = /\ue000(\d+)\ue001/gu;
const TERMINATOR = /[.!?]+["'”’)]*$/u;

export interface Clause {
  /** Which sentence of the answer the clause belongs to (0-based). */
  sentence: number;
  /** The clause text with markers lifted out: whitespace squashed, no leading joiner, no trailing terminator. */
  text: string;
  /** What joined it to the clause before it in the same sentence (", ", "; ", " "); "" for a sentence's first clause. */
  joiner: string;
  /** The sentence's terminator when this is its last clause (".", "?", '."'); otherwise "". */
  terminator: string;
  /** Evidence ids of the markers bound to this clause, as written, deduplicated in order. */
  ids: string[];
}

/** Letters → A/a, digits → 9: "EV-Y-999" and "EV-Y-019" share a shape, "2025-04-12" does not. */
export function shapeOf(id: string): string {
  return id
    .replace(/\p{Lu}/gu, "A")
    .replace(/\p{Ll}/gu, "a")
    .replace(/\p{N}/gu, "9")
    .replace(/9+/g, "9");
}

/** Removes citation markers (evidence and graph forms) from text. */
export function stripMarkers(text: string): string {
  return text.replace(MARKER, " ").replace(GRAPH_MARKER, " ");
}

/**
 * Splits answer text into clauses, each bound to the evidence ids of the markers that close it. `evidenceIds` (the
 * ids of the context) decides which bracketed lists are markers: "[EV-1, EV-2]" counts when every item is an id of the
 * context or has the shape of one (then it is an invented citation, which validation strips and counts).
 */
export function lexClauses(answerText: string, evidenceIds: ReadonlySet<string>): Clause[] {
  const markers: string[][] = [];
  const hold = (ids: string[]) => {
    markers.push(ids);
    return ` ${PH_OPEN}${markers.length - 1}${PH_CLOSE} `;
  };
  let text = answerText.replace(/[\ue000-\uf8ff]/gu, "");
  text = text.replace(MARKER, (_, inner: string) => hold(markerIds(inner, evidenceIds)));
  text = text.replace(GRAPH_MARKER, () => " ");
  const shapes = new Set([...evidenceIds].map(shapeOf));
  text = text.replace(BARE_MARKER, (whole: string, inner: string) => {
    const items = inner
      .split(/\s*[,;]\s*/)
      .map((s) => s.trim())
      .filter(Boolean);
    const looksLikeIds = items.every((id) => evidenceIds.has(id) || (isIdLike(id) && shapes.has(shapeOf(id))));
    return looksLikeIds ? hold(items) : whole;
  });

  const out: Clause[] = [];
  let pendingLead: string[] = []; // markers before any text
  let sentence = -1;
  for (const raw of splitSentences(text)) {
    let body = raw;
    // Markers that open a sentence close the previous sentence's last clause ("A. [EV-1] B.").
    const lead = new RegExp(`^(?:\\s*${PH_OPEN}\\d+${PH_CLOSE})+`, "u").exec(body);
    if (lead) {
      const ids = [...lead[0].matchAll(PLACEHOLDER)].flatMap((m) => markers[Number(m[1])]);
      if (out.length) addIds(out[out.length - 1], ids);
      else pendingLead.push(...ids);
      body = body.slice(lead[0].length);
    }
    if (!/[\p{L}\p{N}]/u.test(body.replace(PLACEHOLDER, ""))) continue;
    sentence++;
    const clauses: Clause[] = [];
    let last = 0;
    let joiner = "";
    for (const m of body.matchAll(new RegExp(`(?:\\s*${PH_OPEN}\\d+${PH_CLOSE})+`, "gu"))) {
      const at = m.index ?? 0;
      const chunk = body.slice(last, at);
      const ids = [...m[0].matchAll(PLACEHOLDER)].flatMap((x) => markers[Number(x[1])]);
      last = at + m[0].length;
      if (/[\p{L}\p{N}]/u.test(chunk)) {
        const { lead: j, text: t, trail } = splitEdges(chunk);
        clauses.push({
          sentence,
          text: t,
          joiner: clauses.length ? (j.trim() ? j : joiner.trim() ? joiner : " ") : "",
          terminator: "",
          ids: dedupe(ids),
        });
        joiner = trail;
      } else if (clauses.length) {
        addIds(clauses[clauses.length - 1], ids); // "A [EV-1], [EV-2]": adjacent markers close the same clause
      } else {
        pendingLead.push(...ids);
      }
    }
    const rest = body.slice(last);
    if (/[\p{L}\p{N}]/u.test(rest)) {
      const { lead: j, text: t, trail } = splitEdges(rest);
      if (clauses.length) {
        // Text after the last marker group belongs to the clause that group closes.
        const c = clauses[clauses.length - 1];
        c.text = squashSpaces(`${c.text}${j.trim() ? j : joiner.trim() ? joiner : " "}${t}`);
      } else {
        clauses.push({ sentence, text: t, joiner: "", terminator: "", ids: [] });
      }
      clauses[clauses.length - 1].terminator = terminatorOf(trail);
    } else if (clauses.length) {
      clauses[clauses.length - 1].terminator = terminatorOf(joiner + rest);
    }
    if (pendingLead.length && clauses.length) {
      addIds(clauses[0], pendingLead);
      pendingLead = [];
    }
    for (const c of clauses) {
      // A terminator inside the clause ("A. [EV-1]" lexed as one sentence) moves to the sentence's end.
      const t = TERMINATOR.exec(c.text);
      if (t) {
        c.text = c.text.slice(0, t.index).trimEnd();
        if (c === clauses[clauses.length - 1] && !c.terminator) c.terminator = t[0];
      }
    }
    out.push(...clauses);
  }
  return out;
}

function splitEdges(chunk: string): { lead: string; text: string; trail: string } {
  const s = chunk.replace(/[^\S\n]+/g, " ");
  const lead = /^[\s,;:–—-]*/u.exec(s)![0];
  const trail = /[\s,;:–—-]*$/u.exec(s.slice(lead.length))![0];
  const text = squashSpaces(s.slice(lead.length, s.length - trail.length));
  return { lead: lead.trim() ? `${lead.trim()} ` : lead ? " " : "", text, trail: trail.trim() ? `${trail.trim()} ` : trail ? " " : "" };
}

function terminatorOf(tail: string): string {
  const t = /[.!?]+["'”’)]*/u.exec(tail);
  return t ? t[0] : "";
}

function addIds(c: Clause, ids: string[]) {
  c.ids = dedupe([...c.ids, ...ids]);
}

function dedupe(ids: string[]): string[] {
  return [...new Set(ids)];
}

function squashSpaces(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

function markerIds(inner: string, evidenceIds: ReadonlySet<string>): string[] {
  const ids: string[] = [];
  for (const part of inner.split(/[,;]/)) {
    const p = part.trim();
    if (!p || /^claim\s*[:=]/iu.test(p)) continue;
    if (evidenceIds.has(p) || !/\s/.test(p)) ids.push(p);
    else ids.push(...p.split(/\s+/).filter(Boolean));
  }
  return ids;
}

// ---------------------------------------------------------------------------------------------------------------
// Rendering kept clauses back into answer text, with canonical markers and server-assigned claim ids.

const CONJUNCTION = /^(?:and|but|while|whereas|and then|then|also|so|yet)\s+/iu;

export interface RenderedClause {
  sentence: number;
  text: string;
  joiner: string;
  terminator: string;
  ids: string[];
  claimId: string;
}

/**
 * Each clause as the answer shows it. A clause that now opens its sentence because the ones before it were removed
 * loses a leading conjunction and gets a capital — unless it starts with an identifier ("did:ws-fin-0231 …").
 */
export function displayTexts(clauses: ReadonlyArray<Pick<Clause, "sentence" | "text" | "joiner">>): string[] {
  return clauses.map((c, i) => {
    const first = i === 0 || clauses[i - 1].sentence !== c.sentence;
    if (!first || !c.joiner) return c.text;
    const t = c.text.replace(CONJUNCTION, "");
    return /^\p{Ll}+(?![\p{L}\p{N}:_./@#-])/u.test(t) ? t.charAt(0).toUpperCase() + t.slice(1) : t;
  });
}

/** `Anna met Boris [evidence: EV-1, claim: CLM-001], and Boris paid [evidence: EV-2, claim: CLM-002].` */
export function renderClauses(clauses: readonly RenderedClause[]): string {
  const shown = displayTexts(clauses);
  const parts: string[] = [];
  clauses.forEach((c, i) => {
    const first = i === 0 || clauses[i - 1].sentence !== c.sentence;
    const last = i === clauses.length - 1 || clauses[i + 1].sentence !== c.sentence;
    const marks = c.ids.map((id) => `[evidence: ${id}, claim: ${c.claimId}]`).join(" ");
    const lead = first ? (i === 0 ? "" : " ") : c.joiner || " ";
    const end = last ? c.terminator || "." : "";
    parts.push(`${lead}${shown[i]} ${marks}${end}`);
  });
  return parts.join("");
}
