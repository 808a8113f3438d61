// The built-in answer-fact detectors (seed 001's regex check): social-security numbers, payment cards (Luhn-checked),
// phone numbers, e-mail addresses, credentials, amounts, and the names or ids of protected entities (case nodes whose
// `protected` property is set, e.g. informants and juveniles). Pure and deterministic; each returns its hits with
// their offsets so the review page can highlight them.
import { extractFacts } from "../graphrag/facts";

export interface DetectorHit {
  /** The detector or extractor that found it (ssn, payment_card, phone, email, credentials, amount, protected:<category>, regex:<name>). */
  detector: string;
  at: number;
  length: number;
}

/** A protected entity: a node tagged `protected` (its category, e.g. "informant", "juvenile"), by id, name and aliases. */
export interface ProtectedEntity {
  id: string;
  category: string;
  names: string[];
}

const SSN = /(?<![\p{N}-])(?!000|666|9\d\d)\d{3}([- ])(?!00)\d{2}\1(?!0000)\d{4}(?![\p{N}]|-\d)/gu;
const SSN_LABELLED = /\b(?:ssn|social security(?: number| no\.?)?)\s*(?:is|:|#)?\s*(\d{9})\b/giu;
const CARD = /(?<![\p{N}])\d(?:[ -]?\d){12,18}(?![\p{N}])/gu;
const PHONE = [
  /(?<![\p{L}\p{N}+])\+\d{1,3}[\s.-]?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){1,3}(?![\p{N}]|[.-]\d)/gu,
  /(?<![\p{L}\p{N}.-])(?:\(\d{3}\)\s?|\d{3}[.-])\d{3}[.-]\d{4}(?![\p{N}]|[.-]\d)/gu,
  /(?<![\p{L}\p{N}.-])\d{3}-\d{4}(?![\p{N}]|[.-]\d)/gu,
];
const EMAIL = /(?<![\p{L}\p{N}_.+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
const CREDENTIALS = [
  /\b(?:password|passwd|passphrase|pwd|passcode|pin code|api[ _-]?key|secret key|access key|auth token|bearer token|private key)\b\s*(?:is|was|=|:)\s*["'`]?[^\s"'`]{4,}/giu,
  /\bAKIA[0-9A-Z]{16}\b/gu,
  /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/gu,
  /\b(?:sk|pk|ghp|gho|xox[abp])[-_][A-Za-z0-9_-]{16,}\b/gu,
];

export const PII_DETECTORS = ["ssn", "payment_card", "phone", "email", "credentials"] as const;
export type PiiDetector = (typeof PII_DETECTORS)[number];

function scan(re: RegExp, text: string, detector: string, accept: (m: RegExpExecArray) => boolean = () => true): DetectorHit[] {
  const out: DetectorHit[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (accept(m)) out.push({ detector, at: m.index, length: m[0].length });
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

/** The Luhn checksum (ISO/IEC 7812) every payment card number satisfies. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length >= 13 && sum % 10 === 0;
}

export const DETECTORS: Record<PiiDetector | "amount", (text: string) => DetectorHit[]> = {
  ssn: (t) => [...scan(SSN, t, "ssn"), ...scan(SSN_LABELLED, t, "ssn")],
  payment_card: (t) =>
    scan(CARD, t, "payment_card", (m) => {
      const digits = m[0].replace(/\D/g, "");
      return digits.length >= 13 && digits.length <= 19 && !/^(\d)\1+$/.test(digits) && luhnValid(digits);
    }),
  phone: (t) => dedupe(PHONE.flatMap((re) => scan(re, t, "phone"))),
  email: (t) => scan(EMAIL, t, "email"),
  credentials: (t) => CREDENTIALS.flatMap((re) => scan(re, t, "credentials")),
  amount: (t) =>
    extractFacts(t)
      .numbers.filter((n) => n.kind === "amount")
      .map((n) => ({ detector: "amount", at: n.at, length: n.raw.length })),
};

/** Hits of protected entities' ids and names (whole words, case-insensitive; names of 3+ characters). */
export function protectedHits(text: string, entities: readonly ProtectedEntity[], category?: string): DetectorHit[] {
  const lower = text.toLowerCase();
  const out: DetectorHit[] = [];
  for (const e of entities) {
    if (category && e.category !== category) continue;
    for (const name of new Set([e.id, ...e.names].map((n) => n.trim().toLowerCase()).filter((n) => n.length >= 3))) {
      for (let at = lower.indexOf(name); at >= 0; at = lower.indexOf(name, at + 1)) {
        if (isWordBoundary(lower, at - 1) && isWordBoundary(lower, at + name.length))
          out.push({ detector: `protected:${e.category}`, at, length: name.length });
      }
    }
  }
  return dedupe(out);
}

const isWordBoundary = (s: string, i: number) => i < 0 || i >= s.length || !/[\p{L}\p{N}_]/u.test(s[i]!);

/** One hit per place: sorted by offset, hits inside an earlier hit of the same detector dropped. */
function dedupe(hits: DetectorHit[]): DetectorHit[] {
  const end = new Map<string, number>();
  return hits
    .sort((a, b) => a.at - b.at || b.length - a.length)
    .filter((h) => {
      if (h.at + h.length <= (end.get(h.detector) ?? -1)) return false;
      end.set(h.detector, Math.max(end.get(h.detector) ?? -1, h.at + h.length));
      return true;
    });
}

/** A bundle-declared extractor's hits; the pattern was checked when the bundle was compiled or loaded. */
export function regexHits(name: string, pattern: string, flags: string, text: string): DetectorHit[] {
  return scan(new RegExp(pattern, [...new Set((flags + "gu").replace(/y/g, ""))].join("")), text, `regex:${name}`);
}
