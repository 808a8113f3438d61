// A DOCX is a ZIP archive: before any parser inflates it, its central directory is read and every part inflated here
// with a hard output cap (zlib's maxOutputLength), so a zip bomb stops at the cap instead of filling memory
// (CG-INGEST-004). XML parts that declare a DTD or entities are refused (CG-INGEST-013): nothing downstream may
// resolve an external entity, and a document that tries is not trusted.
import "server-only";
import { inflateRawSync } from "node:zlib";
import { CasegraphError } from "../../domain/failure-codes";

export interface ZipLimits {
  /** Total inflated bytes of all parts. */
  maxExpandedBytes: number;
  maxEntries: number;
  /** Inflated / compressed size of one part. */
  maxRatio: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxExpandedBytes: 256 * 1024 * 1024, maxEntries: 5_000, maxRatio: 1_000 };

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}

const bomb = (file: string, why: string) => new CasegraphError("CG-INGEST-004", `${file}: ${why}`, [{ path: file, message: why }]);
const unreadable = (file: string, why: string) => new CasegraphError("CG-INGEST-001", `${file}: ${why}`, [{ path: file, message: why }]);

export function zipEntries(file: string, buf: Buffer): ZipEntry[] {
  // End of central directory: the last 22+ bytes (a comment may follow it, up to 64 KB).
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw unreadable(file, "is not a complete ZIP archive (truncated?)");
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw unreadable(file, "has a damaged ZIP directory");
    const nameLength = buf.readUInt16LE(p + 28);
    const extra = buf.readUInt16LE(p + 30);
    const comment = buf.readUInt16LE(p + 32);
    entries.push({
      method: buf.readUInt16LE(p + 10),
      compressedSize: buf.readUInt32LE(p + 20),
      size: buf.readUInt32LE(p + 24),
      offset: buf.readUInt32LE(p + 42),
      name: buf.toString("utf8", p + 46, p + 46 + nameLength),
    });
    p += 46 + nameLength + extra + comment;
  }
  return entries;
}

/** Inflates every part under the caps; returns the XML parts' text (what the hostile-content check reads). */
export function checkZip(file: string, buf: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Map<string, string> {
  const entries = zipEntries(file, buf);
  if (entries.length > limits.maxEntries) throw bomb(file, `holds ${entries.length} parts (limit ${limits.maxEntries})`);
  const declared = entries.reduce((n, e) => n + e.size, 0);
  if (declared > limits.maxExpandedBytes) throw bomb(file, `would expand to ${declared} bytes (limit ${limits.maxExpandedBytes})`);
  let budget = limits.maxExpandedBytes;
  const xml = new Map<string, string>();
  for (const e of entries) {
    if (e.name.endsWith("/")) continue;
    if (e.compressedSize > 0 && e.size / e.compressedSize > limits.maxRatio)
      throw bomb(file, `part ${e.name} has a compression ratio over ${limits.maxRatio}`);
    const local = e.offset;
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw unreadable(file, `part ${e.name} is damaged`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + e.compressedSize);
    if (data.length < e.compressedSize) throw unreadable(file, `part ${e.name} is truncated`);
    let out: Buffer;
    if (e.method === 0) out = data;
    else if (e.method === 8) {
      // The cap is the declared size (a part that inflates past what it declares lies) and what is left of the budget.
      const cap = Math.min(e.size, budget) + 1;
      try {
        out = inflateRawSync(data, { maxOutputLength: Math.max(cap, 1) });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
          throw bomb(file, `part ${e.name} inflates past its declared size`);
        throw unreadable(file, `part ${e.name} cannot be inflated`);
      }
      if (out.length > e.size) throw bomb(file, `part ${e.name} inflates past its declared size`);
    } else throw unreadable(file, `part ${e.name} uses an unsupported compression method`);
    budget -= out.length;
    if (budget < 0) throw bomb(file, `expands past ${limits.maxExpandedBytes} bytes`);
    if (/\.(xml|rels)$/i.test(e.name)) {
      const text = out.toString("utf8");
      if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
        throw new CasegraphError("CG-INGEST-013", `${file}: part ${e.name} declares a DTD or entities (XXE)`, [
          { path: file, message: `part ${e.name} declares a DTD or entities` },
        ]);
      }
      xml.set(e.name, text);
    }
  }
  return xml;
}
