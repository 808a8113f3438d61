// Untrusted text shown to a person (evidence, node names and properties, questions, names in admin pages) must look
// like what it is. Bidirectional controls reorder what follows them ("\u202Egpj.exe" displays as "exe.jpg"), and
// invisible characters hide text; neither is ever rendered as itself. They are shown as visible markers instead, so a
// reader sees that the text holds them (issue 11 §11). Pure: used by server code and client components alike.

/** Characters never rendered as themselves: bidi embeddings, overrides, isolates and marks; zero-width and other invisibles; C0/C1 controls but tab and newline. */
const HIDDEN =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u206a-\u206f\u3164\ufeff\ufff9-\ufffb]/gu;

const NAMES: Record<string, string> = {
  "\u200e": "LRM",
  "\u200f": "RLM",
  "\u061c": "ALM",
  "\u202a": "LRE",
  "\u202b": "RLE",
  "\u202c": "PDF",
  "\u202d": "LRO",
  "\u202e": "RLO",
  "\u2066": "LRI",
  "\u2067": "RLI",
  "\u2068": "FSI",
  "\u2069": "PDI",
  "\u200b": "ZWSP",
  "\u200c": "ZWNJ",
  "\u2060": "WJ",
  "\ufeff": "BOM",
};

export interface TextRun {
  /** Plain text, or a hidden character shown as a marker. */
  kind: "text" | "hidden";
  text: string;
  /** hidden only: e.g. "U+202E RLO". */
  label?: string;
}

const codePoint = (ch: string) => "U+" + ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");

/** The text split into plain runs and hidden characters (in order; joining the `text` of all runs gives the input). */
export function displayRuns(text: string): TextRun[] {
  const runs: TextRun[] = [];
  let last = 0;
  for (const m of text.matchAll(HIDDEN)) {
    if (m.index > last) runs.push({ kind: "text", text: text.slice(last, m.index) });
    const ch = m[0];
    runs.push({ kind: "hidden", text: ch, label: NAMES[ch] ? `${codePoint(ch)} ${NAMES[ch]}` : codePoint(ch) });
    last = m.index + ch.length;
  }
  if (last < text.length) runs.push({ kind: "text", text: text.slice(last) });
  return runs;
}

/** The text with each hidden character replaced by a visible marker ("⟦U+202E RLO⟧"), for plain-text surfaces (graph labels, titles). */
export function revealHidden(text: string): string {
  return displayRuns(text)
    .map((r) => (r.kind === "hidden" ? `⟦${r.label}⟧` : r.text))
    .join("");
}

export const hasHidden = (text: string) => new RegExp(HIDDEN.source, "u").test(text);
