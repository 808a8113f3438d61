// A quotation is a promise of the source's own words. "Kovac said 'I killed him'" has every content word of "REYES:
// Did you kill Raymond Dunn? KOVAC: No." (kill, Kovac), so word overlap passes a confession no one made. Text a claim
// puts in quotation marks must be in what it cites, word for word — case, punctuation and spacing aside; an ellipsis
// may join pieces, each of which must be there. Pure.
import { wordsOnly } from "./text";

/** Quoted spans: double quotes of any style, and single quotes that open after a space or bracket (not "Kovac's"). */
const QUOTED = /[“"]([^“”"\n]{1,500})[”"]|(?<=^|[\s(\[:;,—–-])[‘']([^‘’'\n]*?[^\s‘’'\n])[’'](?=$|[\s.,;:!?)\]—–-])/gu;

/** The first span the claim quotes that none of `sourceTexts` holds word for word; null when all are there. */
export function misquoted(claim: string, sourceTexts: readonly string[]): string | null {
  if (!/["“”'‘’]/.test(claim)) return null;
  const sources = ` ${sourceTexts.map(wordsOnly).join(" \u0000 ")} `;
  for (const m of claim.matchAll(QUOTED)) {
    const span = (m[1] ?? m[2]).trim();
    const pieces = span
      .split(/\.{3}|…|\[\s*\.{0,3}\s*\]/u)
      .map(wordsOnly)
      .filter(Boolean);
    if (pieces.some((p) => !sources.includes(` ${p} `))) return span;
  }
  return null;
}
