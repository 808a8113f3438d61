// PostgreSQL's binary COPY format (https://www.postgresql.org/docs/current/sql-copy.html, "Binary Format"), read as a
// stream. The ledger's full verify reads every entry's hashed bytes this way: no per-row JavaScript strings for the
// bodies (they are hashed straight from the received buffers), which is what a million-entry walk spends its time on
// with a row-object driver.
//
// Rows are handed to the caller as offsets into the current buffer, valid only during the callback.
import "server-only";

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");

export interface CopyRow {
  /** The buffer holding this row; fields are [start[i], start[i] + length[i]). length -1 = NULL. */
  buf: Buffer;
  start: Int32Array;
  length: Int32Array;
  fields: number;
}

export class CopyBinaryParser {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes the incomplete row at the start of `pending` needs at least (so a large row is joined once, not per chunk). */
  private need = 0;
  private headerDone = false;
  private finished = false;
  private readonly row: CopyRow;

  constructor(maxFields = 32) {
    this.row = { buf: Buffer.alloc(0), start: new Int32Array(maxFields), length: new Int32Array(maxFields), fields: 0 };
  }

  /** Parses every complete row in `chunk` (plus what was left over), calling `onRow` for each. */
  feed(chunk: Buffer, onRow: (row: CopyRow) => void): void {
    if (this.pendingBytes) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      if (this.pendingBytes < this.need) return;
    }
    const buf = this.pendingBytes ? Buffer.concat(this.pending, this.pendingBytes) : chunk;
    this.pending = [];
    this.pendingBytes = 0;
    this.need = 0;
    let pos = 0;
    if (!this.headerDone) {
      if (buf.length < 19) return this.keep(buf, 19);
      if (!buf.subarray(0, 11).equals(SIGNATURE)) throw new Error("not a binary COPY stream");
      const extension = buf.readUInt32BE(15);
      if (buf.length < 19 + extension) return this.keep(buf, 19 + extension);
      pos = 19 + extension;
      this.headerDone = true;
    }
    const row = this.row;
    row.buf = buf;
    while (pos + 2 <= buf.length) {
      const fields = buf.readInt16BE(pos);
      if (fields === -1) {
        this.finished = true;
        pos += 2;
        break;
      }
      if (fields < 0 || fields > row.start.length) throw new Error(`binary COPY row with ${fields} fields`);
      let p = pos + 2;
      for (let i = 0; i < fields && p <= buf.length; i++) {
        if (p + 4 > buf.length) {
          p += 4;
          break;
        }
        const len = buf.readInt32BE(p);
        p += 4;
        row.start[i] = p;
        row.length[i] = len;
        if (len > 0) p += len;
      }
      if (p > buf.length) return this.keep(buf.subarray(pos), p - pos);
      row.fields = fields;
      onRow(row);
      pos = p;
    }
    if (pos < buf.length) {
      if (this.finished) throw new Error("data after the binary COPY trailer");
      this.keep(buf.subarray(pos), 2); // part of the next row's field count
    }
  }

  private keep(rest: Buffer, need: number): void {
    this.pending = [rest];
    this.pendingBytes = rest.length;
    this.need = need;
  }

  /** Throws unless the stream ended with the trailer and nothing left over. */
  end(): void {
    if (!this.finished || this.pendingBytes) throw new Error("binary COPY stream ended early");
  }
}

/** Field readers for the types the ledger walk selects. */
export const copyField = {
  int8: (r: CopyRow, i: number) => Number(r.buf.readBigInt64BE(r.start[i])),
  float8: (r: CopyRow, i: number) => r.buf.readDoubleBE(r.start[i]),
  text: (r: CopyRow, i: number) => (r.length[i] < 0 ? null : r.buf.toString("utf8", r.start[i], r.start[i] + r.length[i])),
  bytes: (r: CopyRow, i: number) => r.buf.subarray(r.start[i], r.start[i] + Math.max(0, r.length[i])),
};
