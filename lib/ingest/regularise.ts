// Regularising a parsed document (issue 17): whatever the format, its text becomes sections → paragraphs, each
// paragraph with its page (PDF) and its [start, end) offsets into one regular text. Evidence chunks (chunk.ts) and
// the viewer's highlight point into that text, so the same offsets mean the same passage everywhere. Pure.

/** What a format's parser hands over: headings and paragraphs in reading order, with the page they are on. */
export interface Block {
  kind: "heading" | "paragraph";
  text: string;
  /** 1-based page number (PDF); null for formats without pages. */
  page: number | null;
  /** Heading level (1 = top). */
  level?: number;
}

export interface Paragraph {
  start: number;
  end: number;
  page: number | null;
  heading?: true;
}

export interface Section {
  /** The heading that opens the section; null for text before the first heading. */
  title: string | null;
  level: number;
  start: number;
  end: number;
  paragraphs: Paragraph[];
}

export interface RegularDocument {
  /** Paragraphs joined by a blank line; every offset points into this. */
  text: string;
  sections: Section[];
  /** Pages of the original (PDF), else null. */
  pages: number | null;
}

/** Paragraphs are separated by this in the regular text. */
export const PARAGRAPH_BREAK = "\n\n";

/**
 * One paragraph's text, regular: Unicode NFC, control characters (other than tab and line breaks) dropped, every run
 * of whitespace (line breaks included: a paragraph is one line) one space, trimmed.
 */
export function regularText(raw: string): string {
  return raw
    .normalize("NFC")
    .replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

export function regularise(blocks: Iterable<Block>, pages: number | null = null): RegularDocument {
  const parts: string[] = [];
  let length = 0;
  const sections: Section[] = [];
  let current: Section | null = null;
  for (const block of blocks) {
    const text = regularText(block.text);
    if (!text) continue;
    if (length > 0) {
      parts.push(PARAGRAPH_BREAK);
      length += PARAGRAPH_BREAK.length;
    }
    const paragraph: Paragraph = { start: length, end: length + text.length, page: block.page };
    parts.push(text);
    length += text.length;
    if (block.kind === "heading") {
      current = { title: text, level: Math.max(1, block.level ?? 1), start: paragraph.start, end: paragraph.end, paragraphs: [] };
      sections.push(current);
      paragraph.heading = true;
    } else if (!current) {
      current = { title: null, level: 0, start: paragraph.start, end: paragraph.end, paragraphs: [] };
      sections.push(current);
    }
    current.paragraphs.push(paragraph);
    current.end = paragraph.end;
  }
  return { text: parts.join(""), sections, pages };
}

/** Counts for the ledger entry and the result. */
export function structureCounts(doc: RegularDocument): { sections: number; paragraphs: number; characters: number } {
  return {
    sections: doc.sections.length,
    paragraphs: doc.sections.reduce((n, s) => n + s.paragraphs.length, 0),
    characters: doc.text.length,
  };
}

/** Splits plain text (or Markdown) into blocks: blank lines separate paragraphs; Markdown `#` lines are headings. */
export function textBlocks(text: string, markdown: boolean): Block[] {
  const blocks: Block[] = [];
  for (const para of text.replace(/\r\n?/g, "\n").split(/\n[ \t]*\n/)) {
    if (!para.trim()) continue;
    if (markdown) {
      // A heading line starts its own block; the lines after it (without a blank line) are a paragraph.
      let rest: string[] = [];
      const flush = () => {
        if (rest.length) blocks.push({ kind: "paragraph", text: rest.join("\n"), page: null });
        rest = [];
      };
      for (const line of para.split("\n")) {
        const h = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
        if (h) {
          flush();
          blocks.push({ kind: "heading", text: h[2], page: null, level: h[1].length });
        } else rest.push(line);
      }
      flush();
    } else blocks.push({ kind: "paragraph", text: para, page: null });
  }
  return blocks;
}
