// Untrusted text shown to a person (evidence, node names and properties, questions, names in admin pages) must look
// like what it is. Bidirectional controls reorder what follows them ("\u202Egpj.exe" displays as "exe.jpg"), and
// invisible characters hide text; neither is ever rendered as itself. They are shown as visible markers instead, so a
// reader sees that the text holds them (issue 11 §11). Pure: used by server code and client components alike.

/** C0 and C1 controls but tab, line feed and carriage return. */
const CONTROLS = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f";
/**
 * Characters that are never seen for what they are: C0/C1 controls, and Unicode's default-ignorable code points —
 * zero-width spaces and joiners, bidi embeddings, overrides, isolates and marks, the soft hyphen, variation selectors,
 * Hangul fillers, and the tag characters U+E0000–E007F, which spell ASCII that no screen shows but a language model
 * reads ("ASCII smuggling") — plus the interlinear annotation controls. One definition for every surface: what is
 * stripped before the model sees evidence or the reader sees the model's text, what a question may not hold, what
 * the screen shows as a marker.
 */
export const HIDDEN_CHARACTERS = `[${CONTROLS}\\p{Default_Ignorable_Code_Point}\\ufff9-\\ufffb]`;

/** A fresh regular expression for them (global by default: each caller gets its own lastIndex). */
export const hiddenCharacters = (flags = "gu") => new RegExp(HIDDEN_CHARACTERS, flags);

const HIDDEN_ALL = hiddenCharacters();
/** The text without them (one compiled expression: `replace` starts a global one from the beginning every time). */
export const stripHidden = (text: string) => text.replace(HIDDEN_ALL, "");

/** Shown as markers: all but the soft hyphen (seen at a line break) and the joiner and selector of ordinary emoji ("❤️"). */
const HIDDEN = new RegExp(`(?![\\u00ad\\u200d\\ufe0f])${HIDDEN_CHARACTERS}`, "gu");
/** Tag characters spell ASCII (U+E0020–E007E are " "–"~"): a run of them is shown once, with what it spells. */
const TAG_RUN = /^[\u{e0000}-\u{e007f}]$/u;

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
    if (m.index < last) continue;
    if (m.index > last) runs.push({ kind: "text", text: text.slice(last, m.index) });
    const ch = m[0];
    if (TAG_RUN.test(ch)) {
      const tags = [...text.slice(m.index)].findIndex((c) => !TAG_RUN.test(c));
      const run = [...text.slice(m.index)].slice(0, tags < 0 ? undefined : tags).join("");
      const spelled = [...run].map((c) => String.fromCodePoint(c.codePointAt(0)! - 0xe0000)).filter((c) => c >= " " && c <= "~");
      runs.push({ kind: "hidden", text: run, label: `tag characters spelling "${spelled.join("")}"` });
      last = m.index + run.length;
      continue;
    }
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
