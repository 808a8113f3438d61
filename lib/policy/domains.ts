// Keyword dictionaries for classifying a question's domain before generation (seed 001's DOMAIN_KEYWORDS). A bundle
// carries the dictionaries of its own domains (compile copies them in), so enforcement depends on the bundle alone.
import { readable } from "./vocabulary";

export const DOMAIN_KEYWORDS: Record<string, readonly string[]> = {
  financial: [
    "amount",
    "money",
    "payment",
    "paid",
    "pay",
    "bank",
    "account",
    "transfer",
    "wire",
    "cash",
    "transaction",
    "invoice",
    "deposit",
    "withdrawal",
    "funds",
    "dollars",
    "fraud",
    "procurement",
    "$",
  ],
  informants: ["informant", "informants", "ci", "source", "handler", "cooperator", "tipster", "debrief"],
  victims: ["victim", "victims", "complainant", "survivor", "injured", "deceased"],
  juveniles: ["juvenile", "juveniles", "minor", "minors", "child", "children", "teen", "teenager", "youth", "student"],
  narcotics: ["drug", "drugs", "narcotics", "fentanyl", "cocaine", "heroin", "meth", "shipment", "dealer", "lab"],
  homicide: ["homicide", "murder", "killed", "killing", "shooting", "stabbing", "body", "weapon", "knife", "gun"],
  cyber: ["device", "malware", "intrusion", "ip", "domain", "phishing", "beacon", "exfiltration", "edr", "siem", "alert", "compromise"],
  personal_data: ["ssn", "social", "security", "phone", "email", "address", "birth", "contact", "number"],
};

/** The dictionaries for a bundle's domains: the built-in words plus the domain's own name, sorted. */
export function keywordsFor(domains: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const d of domains) {
    if (d === "general") continue;
    out[d] = [...new Set([...(DOMAIN_KEYWORDS[d] ?? []), ...readable(d).split(" ")])].sort();
  }
  return out;
}

export interface DomainGuess {
  domain: string;
  /** Share of the keyword hits that went to the chosen domain (0 when none matched). */
  confidence: number;
}

/**
 * Keyword classification: the domain with the most distinct keyword hits in the question (ties → code-point order),
 * confidence = its hits over all domains' hits. No hits → "general" with confidence 0.
 */
export function classifyDomain(question: string, dictionaries: Record<string, readonly string[]>): DomainGuess {
  const tokens = new Set(question.toLowerCase().match(/[\p{L}\p{N}_]+|\$/gu) ?? []);
  let best = { domain: "general", hits: 0 };
  let total = 0;
  for (const domain of Object.keys(dictionaries).sort()) {
    const hits = dictionaries[domain]!.filter((k) => tokens.has(k)).length;
    total += hits;
    if (hits > best.hits) best = { domain, hits };
  }
  return { domain: best.domain, confidence: total ? best.hits / total : 0 };
}
