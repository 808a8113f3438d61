// Document ingest's settings (issue 17), parsed with zod like lib/env.ts: the operator's size limit, the PDF page
// limit, chunk bounds and where originals are kept.
import "server-only";
import path from "node:path";
import { z } from "zod";
import { optionalString, parseEnv } from "../../env";
import { defaultDataDir } from "../../adapters/prisma/db";
import { checkBounds, type ChunkBounds } from "../../ingest/chunk";

export const ingestEnvSchema = z.object({
  /** Largest file accepted, in MB (refused before it is read). */
  CASEGRAPH_INGEST_MAX_MB: z.coerce.number().min(0.001).max(4096).default(50),
  /** Largest PDF accepted, in pages. */
  CASEGRAPH_INGEST_MAX_PAGES: z.coerce.number().int().min(1).max(100_000).default(2_000),
  /** Chunk bounds in characters: a chunk is closed at a sentence end once past the minimum, never grows past the maximum. */
  CASEGRAPH_CHUNK_MIN_CHARS: z.coerce.number().int().min(1).max(100_000).default(300),
  CASEGRAPH_CHUNK_MAX_CHARS: z.coerce.number().int().min(1).max(100_000).default(1_200),
  /** Where originals are kept, content-addressed; default `<data dir>/originals`. */
  CASEGRAPH_ORIGINALS_DIR: optionalString,
});

export interface IngestSettings {
  maxBytes: number;
  maxPdfPages: number;
  chunks: ChunkBounds;
  originalsDir: string;
}

export function readIngestSettings(source: Record<string, string | undefined> = process.env): IngestSettings {
  const e = parseEnv(ingestEnvSchema, source);
  const max = Math.max(e.CASEGRAPH_CHUNK_MAX_CHARS, e.CASEGRAPH_CHUNK_MIN_CHARS);
  return {
    maxBytes: Math.round(e.CASEGRAPH_INGEST_MAX_MB * 1024 * 1024),
    maxPdfPages: e.CASEGRAPH_INGEST_MAX_PAGES,
    chunks: checkBounds({ minChars: e.CASEGRAPH_CHUNK_MIN_CHARS, maxChars: max, hardMaxChars: Math.max(6_000, max * 5) }),
    originalsDir: e.CASEGRAPH_ORIGINALS_DIR ?? path.join(defaultDataDir(), "originals"),
  };
}
