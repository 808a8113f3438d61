// Entity linking (issue 17): which of the case's existing nodes a piece of text mentions, deterministically and
// explainably — every link records what matched and how. Pure.
//
// - Names and aliases: whole words, case and accent insensitive ("JOSÉ   Pérez" = "jose perez"; "Perezville" is not
//   "Perez"). A person's surname alone links when it is capitalised in the text, at least 4 letters long and no other
//   person of the case has it (kind "surname").
// - Phone numbers in any common format compare by digits; a shorter number matches the end of a longer one when it
//   has at least 7 digits ("555-0178" = "+1 (555) 0178" = "+1-555-0178").
// - Plates, serials, device, case-style and other ids compare case-insensitively ignoring separators and a scheme
//   prefix ("did:ws-fin-0231" = "WS-FIN-0231"; "HBR 4471" is two words, "HBR-4471" = "hbr4471"); IP addresses exactly.
// - Other numbers of 6+ digits (account numbers, registrations), with or without separators, compare by digits.
// - Masked account numbers ("...2207") match "...2207", "…2207", "****2207", "xxxx2207" or "ending (in) 2207".
import { extractFacts, idKey } from "../graphrag/facts";

export interface LinkNode {
  id: string;
  label: string;
  name: string;
  properties: Record<string, unknown>;
}

export type LinkKind = "name" | "alias" | "surname" | "phone" | "account" | "number" | "ip" | "id";

export interface Link {
  nodeId: string;
  kind: LinkKind;
  /** The text as it appears in the passage. */
  matched: string;
  /** The node's value it matched (a name, alias, number or id). */
  value: string;
  /** Offset of the match in the passage. */
  at: number;
}

interface Phrase {
  tokens: string[];
  nodeId: string;
  kind: LinkKind;
  value: string;
  /** Surnames must be capitalised in the text. */
  capitalised?: boolean;
}

export interface LinkIndex {
  phrases: Map<string, Phrase[]>;
  phones: Array<{ digits: string; nodeId: string; value: string }>;
  ids: Map<string, Array<{ nodeId: string; value: string }>>;
  ips: Map<string, Array<{ nodeId: string; value: string }>>;
  masked: Array<{ suffix: string; nodeId: string; value: string }>;
  accounts: Array<{ digits: string; nodeId: string; value: string; kind: LinkKind }>;
  size: number;
}

/** Properties whose values are identifiers a document may quote. */
const ID_KEYS = new Set([
  "number",
  "phone",
  "msisdn",
  "imei",
  "imsi",
  "plate",
  "registration",
  "serial",
  "vin",
  "hostname",
  "ip",
  "principal",
  "account",
  "accountnumber",
  "iban",
  "casenumber",
  "exhibit",
  "sha256",
  "file",
  "email",
]);
const PHONE_KEYS = new Set(["phone", "msisdn", "number"]);

/** Lower-case, accents removed, compatibility forms folded: what names are compared by. */
export function foldName(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

const TOKEN = /[\p{L}\p{N}]+/gu;

function tokensOf(text: string): Array<{ fold: string; raw: string; at: number; end: number }> {
  const out: Array<{ fold: string; raw: string; at: number; end: number }> = [];
  for (const m of text.matchAll(TOKEN)) {
    const at = m.index ?? 0;
    out.push({ fold: foldName(m[0]), raw: m[0], at, end: at + m[0].length });
  }
  return out;
}

const isPhoneLike = (v: string) => /^[+()\d\s.-]+$/.test(v) && (v.match(/\d/g)?.length ?? 0) >= 7;

function stringsOf(v: unknown): string[] {
  if (typeof v === "string") return v.trim() ? [v.trim()] : [];
  if (typeof v === "number" && Number.isFinite(v)) return [String(v)];
  if (Array.isArray(v)) return v.flatMap(stringsOf);
  return [];
}

export function buildLinkIndex(nodes: Iterable<LinkNode>): LinkIndex {
  const index: LinkIndex = { phrases: new Map(), phones: [], ids: new Map(), ips: new Map(), masked: [], accounts: [], size: 0 };
  const addPhrase = (p: Phrase) => {
    if (!p.tokens.length) return;
    // A one-word name needs 3+ characters, or it matches too much.
    if (p.tokens.length === 1 && p.tokens[0].length < 3) return;
    const list = index.phrases.get(p.tokens[0]) ?? [];
    if (!list.some((q) => q.nodeId === p.nodeId && q.tokens.join(" ") === p.tokens.join(" "))) list.push(p);
    index.phrases.set(p.tokens[0], list);
  };
  const addTo = (map: Map<string, Array<{ nodeId: string; value: string }>>, key: string, nodeId: string, value: string) => {
    const list = map.get(key) ?? [];
    if (!list.some((e) => e.nodeId === nodeId)) list.push({ nodeId, value });
    map.set(key, list);
  };
  const addId = (nodeId: string, value: string, key: string | null, label: string) => {
    const masked = /^(?:\.{3}|…|\*{2,}|x{2,})\s*(\d{3,})$/i.exec(value);
    if (masked) return void index.masked.push({ suffix: masked[1], nodeId, value });
    if ((label === "Phone" || (key !== null && PHONE_KEYS.has(key) && label !== "Account")) && isPhoneLike(value)) {
      return void index.phones.push({ digits: value.replace(/\D/g, ""), nodeId, value });
    }
    if (/^(?:\d{1,3}\.){3}\d{1,3}$/.test(value.replace(/^ip:/i, ""))) return addTo(index.ips, value.replace(/^ip:/i, ""), nodeId, value);
    if (/^\d[\d\s-]{4,}\d$/.test(value))
      return void index.accounts.push({
        digits: value.replace(/\D/g, ""),
        nodeId,
        value,
        kind: label === "Account" ? "account" : "number",
      });
    const k = idKey(value);
    // Identifiers worth matching: 4+ characters with a digit, or a separator-joined form (ws-fin, cdn-update-check.net).
    if (k.length >= 4 && (/\d/.test(k) || /[\p{L}\p{N}][-_.:/][\p{L}\p{N}]/u.test(value))) addTo(index.ids, k, nodeId, value);
  };

  const people = new Map<string, string[]>();
  const all = [...nodes];
  for (const n of all) {
    index.size++;
    const names = [n.name, ...stringsOf(n.properties.name)];
    for (const name of new Set(names)) {
      if (/\d/.test(name) && !/\s/.test(name)) continue; // an identifier, matched below
      addPhrase({ tokens: tokensOf(name).map((t) => t.fold), nodeId: n.id, kind: "name", value: name });
    }
    for (const alias of [...stringsOf(n.properties.aliases), ...stringsOf(n.properties.alias)]) {
      addPhrase({ tokens: tokensOf(alias).map((t) => t.fold), nodeId: n.id, kind: "alias", value: alias });
    }
    if (n.label === "Person") {
      const toks = tokensOf(n.name);
      const last = toks[toks.length - 1];
      if (toks.length >= 2 && last && last.fold.length >= 4 && !/\d/.test(last.fold)) {
        people.set(last.fold, [...(people.get(last.fold) ?? []), n.id]);
      }
    }
    // The node's own id when it is an identifier (did:…, ip:…, ph-0143 is not quoted by documents but costs nothing).
    if (/[\d:]/.test(n.id)) addId(n.id, n.id, null, n.label);
    if (/\d/.test(n.name) && !/\s/.test(n.name)) addId(n.id, n.name, "name", n.label);
    for (const [key, v] of Object.entries(n.properties)) {
      const k = key.toLowerCase().replace(/[^a-z0-9]/g, "");
      if (!ID_KEYS.has(k)) continue;
      for (const value of stringsOf(v)) addId(n.id, value, k, n.label);
    }
  }
  for (const [surname, ids] of people) {
    if (ids.length !== 1) continue;
    const node = all.find((n) => n.id === ids[0])!;
    addPhrase({ tokens: [surname], nodeId: node.id, kind: "surname", value: node.name, capitalised: true });
  }
  // Longer phrases first, so "Victor Marchetti" wins over "Marchetti" at the same place.
  for (const list of index.phrases.values()) list.sort((a, b) => b.tokens.length - a.tokens.length);
  return index;
}

const phoneMatch = (a: string, b: string) => a === b || (Math.min(a.length, b.length) >= 7 && (a.endsWith(b) || b.endsWith(a)));

/** The nodes `text` mentions, one link per node (its first mention), in order of appearance. */
export function linkText(index: LinkIndex, text: string): Link[] {
  if (!index.size || !text) return [];
  const found = new Map<string, Link>();
  const add = (l: Link) => {
    const prior = found.get(l.nodeId);
    if (!prior || l.at < prior.at) found.set(l.nodeId, l);
  };
  // Names and aliases: token sequences.
  const toks = tokensOf(text);
  for (let i = 0; i < toks.length; i++) {
    const candidates = index.phrases.get(toks[i].fold);
    if (!candidates) continue;
    for (const p of candidates) {
      if (i + p.tokens.length > toks.length) continue;
      let ok = true;
      for (let k = 1; k < p.tokens.length && ok; k++) ok = toks[i + k].fold === p.tokens[k];
      if (!ok) continue;
      if (p.capitalised && !/^\p{Lu}/u.test(toks[i].raw)) continue;
      const end = toks[i + p.tokens.length - 1].end;
      add({ nodeId: p.nodeId, kind: p.kind, matched: text.slice(toks[i].at, end), value: p.value, at: toks[i].at });
    }
  }
  // Identifiers: the claim checker's extractor reads phones, IPs and ids the same way here.
  if (/\d|[-_.:/]/.test(text)) {
    for (const f of extractFacts(text).ids) {
      if (f.kind === "phone") {
        for (const p of index.phones)
          if (phoneMatch(f.key, p.digits)) add({ nodeId: p.nodeId, kind: "phone", matched: f.raw, value: p.value, at: f.at });
      } else if (f.kind === "ip") {
        for (const e of index.ips.get(f.key.replace(/\/\d+$/, "")) ?? [])
          add({ nodeId: e.nodeId, kind: "ip", matched: f.raw, value: e.value, at: f.at });
      } else {
        for (const e of index.ids.get(f.key) ?? []) add({ nodeId: e.nodeId, kind: "id", matched: f.raw, value: e.value, at: f.at });
      }
    }
    if (index.accounts.length) {
      for (const hit of text.matchAll(/(?<![\p{L}\p{N}])\d[\d -]{4,}\d(?![\p{N}])/gu)) {
        const digits = hit[0].replace(/\D/g, "");
        for (const a of index.accounts)
          if (a.digits === digits) add({ nodeId: a.nodeId, kind: a.kind, matched: hit[0], value: a.value, at: hit.index ?? 0 });
      }
    }
    for (const m of index.masked) {
      const re = new RegExp(String.raw`(?:\.{3}|…|\*{2,}|[xX]{2,}|ending(?:\s+in)?\s+)\s*${m.suffix}(?!\d)`, "g");
      for (const hit of text.matchAll(re)) add({ nodeId: m.nodeId, kind: "account", matched: hit[0], value: m.value, at: hit.index ?? 0 });
    }
  }
  return [...found.values()].sort((a, b) => a.at - b.at || (a.nodeId < b.nodeId ? -1 : 1));
}
