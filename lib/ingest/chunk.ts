// Chunking a regular document into evidence items (issue 17): whole sentences only, within one section, between a
// minimum and a maximum size (configurable). A chunk never splits a sentence: a sentence longer than the maximum is a
// chunk of its own, and only one longer than the hard limit is cut, at a word boundary (tables without full stops,
// mostly). A chunk never spans two pages, so a citation opens on the page it quotes.
// Offsets are into the regular text (regularise.ts), so chunk text = text.slice(start, end). Pure.
import { sentenceSpans } from "../graphrag/text";
import type { RegularDocument } from "./regularise";

export interface ChunkBounds {
  /** A chunk is not closed below this many characters unless its section ends. */
  minChars: number;
  /** A chunk does not grow past this many characters (a single longer sentence is kept whole). */
  maxChars: number;
  /** A sentence longer than this is cut at a word boundary (never a shorter one). */
  hardMaxChars: number;
}

export const DEFAULT_CHUNK_BOUNDS: ChunkBounds = { minChars: 300, maxChars: 1_200, hardMaxChars: 6_000 };

export interface Chunk {
  /** 0-based, in reading order. */
  index: number;
  text: string;
  start: number;
  end: number;
  /** Page of the chunk's first and last sentence (null without pages). */
  page: number | null;
  pageEnd: number | null;
  /** Title of the section it belongs to. */
  section: string | null;
}

interface Piece {
  start: number;
  end: number;
  page: number | null;
}

export function checkBounds(b: ChunkBounds): ChunkBounds {
  if (!(b.minChars >= 1 && b.maxChars >= b.minChars && b.hardMaxChars >= b.maxChars)) {
    throw new RangeError(`chunk bounds must satisfy 1 ≤ min ≤ max ≤ hard max (got ${b.minChars}, ${b.maxChars}, ${b.hardMaxChars})`);
  }
  return b;
}

/** The sentences of a paragraph as pieces of the document's text, over-long ones cut at word boundaries. */
function* sentencesOf(text: string, start: number, end: number, page: number | null, hardMax: number): Generator<Piece> {
  const para = text.slice(start, end);
  for (const s of sentenceSpans(para)) {
    let a = start + s.start;
    const b = start + s.end;
    while (b - a > hardMax) {
      let cut = text.lastIndexOf(" ", a + hardMax);
      if (cut <= a) cut = a + hardMax;
      yield { start: a, end: cut, page };
      a = cut;
      while (a < b && text[a] === " ") a++;
    }
    if (b > a) yield { start: a, end: b, page };
  }
}

export function chunkDocument(doc: RegularDocument, bounds: ChunkBounds = DEFAULT_CHUNK_BOUNDS): Chunk[] {
  checkBounds(bounds);
  const chunks: Chunk[] = [];
  for (const section of doc.sections) {
    const sectionChunks: Piece[][] = [];
    let current: Piece[] = [];
    const size = (ps: Piece[]) => (ps.length ? ps[ps.length - 1].end - ps[0].start : 0);
    for (const p of section.paragraphs) {
      for (const s of sentencesOf(doc.text, p.start, p.end, p.page, bounds.hardMaxChars)) {
        if (current.length) {
          const grown = s.end - current[0].start;
          const pageChange = s.page !== current[current.length - 1].page;
          if (grown > bounds.maxChars || pageChange) {
            sectionChunks.push(current);
            current = [];
          }
        }
        current.push(s);
      }
    }
    if (current.length) {
      // A short tail joins the chunk before it when the two fit the maximum together (same page).
      const last = sectionChunks[sectionChunks.length - 1];
      if (
        last &&
        size(current) < bounds.minChars &&
        current[current.length - 1].end - last[0].start <= bounds.maxChars &&
        last[last.length - 1].page === current[0].page
      )
        last.push(...current);
      else sectionChunks.push(current);
    }
    for (const ps of sectionChunks) {
      const start = ps[0].start;
      const end = ps[ps.length - 1].end;
      chunks.push({
        index: chunks.length,
        text: doc.text.slice(start, end),
        start,
        end,
        page: ps[0].page,
        pageEnd: ps[ps.length - 1].page,
        section: section.title,
      });
    }
  }
  return chunks;
}
