// Originals of ingested documents, content-addressed by SHA-256 in the data folder (`<data dir>/originals/ab/<hash>`):
// the same bytes are stored once whatever case or tenant uploads them (a document row says who may see them). A file
// is written aside and renamed into place, so a reader never sees half of one and a failed ingest leaves at most an
// unreferenced original behind, never a damaged one.
import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";

export interface OriginalStore {
  /** Stores bytes under their SHA-256 (a no-op when already there); returns the digest. */
  put(bytes: Buffer): Promise<string>;
  /** Stores a file by streaming it (hashed on the way, never held whole in memory); returns the digest. */
  putFile(file: string): Promise<string>;
  get(sha256: string): Promise<Buffer | null>;
  stream(sha256: string): Promise<Readable | null>;
  has(sha256: string): Promise<boolean>;
}

export const sha256Of = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

export class FileOriginalStore implements OriginalStore {
  constructor(readonly dir: string) {}

  private pathOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error("not a SHA-256 hex digest");
    return path.join(this.dir, sha256.slice(0, 2), sha256);
  }

  async put(bytes: Buffer): Promise<string> {
    const sha256 = sha256Of(bytes);
    const target = this.pathOf(sha256);
    if (await this.has(sha256)) return sha256;
    await mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${randomUUID()}.tmp`;
    try {
      await writeFile(tmp, bytes, { mode: 0o600 });
      await rename(tmp, target);
    } finally {
      await rm(tmp, { force: true });
    }
    return sha256;
  }

  async putFile(file: string): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const tmp = path.join(this.dir, `incoming.${randomUUID()}.tmp`);
    try {
      const hash = createHash("sha256");
      await pipeline(
        createReadStream(file),
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            hash.update(chunk);
            yield chunk;
          }
        },
        createWriteStream(tmp, { mode: 0o600 }),
      );
      const sha256 = hash.digest("hex");
      const target = this.pathOf(sha256);
      if (!(await this.has(sha256))) {
        await mkdir(path.dirname(target), { recursive: true });
        await rename(tmp, target);
      }
      return sha256;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  async has(sha256: string): Promise<boolean> {
    return stat(this.pathOf(sha256)).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  async get(sha256: string): Promise<Buffer | null> {
    return readFile(this.pathOf(sha256)).catch(() => null);
  }

  async stream(sha256: string): Promise<Readable | null> {
    return (await this.has(sha256)) ? createReadStream(this.pathOf(sha256)) : null;
  }
}
