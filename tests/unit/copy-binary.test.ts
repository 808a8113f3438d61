import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { CopyBinaryParser, copyField, type CopyRow } from "@/lib/adapters/prisma/copy-binary";
import { bodyMatches, entryBodyOf, hashOfBody } from "@/lib/domain/ledger-chain";

// A binary COPY stream written by hand from the format description (signature, flags, extension, tuples, trailer).
type Field = { int8: number } | { float8: number } | { text: string | null };
function encode(rows: Field[][], extension = Buffer.alloc(0)): Buffer {
  const parts: Buffer[] = [Buffer.from("PGCOPY\n\xff\r\n\0", "latin1")];
  const head = Buffer.alloc(8);
  head.writeUInt32BE(0, 0);
  head.writeUInt32BE(extension.length, 4);
  parts.push(head, extension);
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(row.length);
    parts.push(count);
    for (const f of row) {
      let data: Buffer | null;
      if ("int8" in f) (data = Buffer.alloc(8)).writeBigInt64BE(BigInt(f.int8));
      else if ("float8" in f) (data = Buffer.alloc(8)).writeDoubleBE(f.float8);
      else data = f.text === null ? null : Buffer.from(f.text, "utf8");
      const len = Buffer.alloc(4);
      len.writeInt32BE(data ? data.length : -1);
      parts.push(len);
      if (data) parts.push(data);
    }
  }
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1);
  parts.push(trailer);
  return Buffer.concat(parts);
}

const read = (r: CopyRow) => [copyField.int8(r, 0), copyField.float8(r, 1), copyField.text(r, 2), copyField.text(r, 3)];

function parseInChunks(stream: Buffer, cuts: number[]) {
  const parser = new CopyBinaryParser(4);
  const out: unknown[][] = [];
  let at = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < stream.length)].sort((a, b) => a - b).concat(stream.length)) {
    parser.feed(stream.subarray(at, cut), (r) => out.push(read(r)));
    at = cut;
  }
  parser.end();
  return out;
}

const sample: Field[][] = [
  [{ int8: 1 }, { float8: 1767225600123 }, { text: "graphrag.answer" }, { text: '{"a":"ünïcödé \\n"}' }],
  [{ int8: 2 }, { float8: 0 }, { text: null }, { text: "" }],
  [{ int8: 9_007_199_254_740_991 }, { float8: -1.5 }, { text: "x".repeat(100_000) }, { text: "tab\tnewline\n" }],
];
const expected = sample.map((row) => row.map((f) => ("int8" in f ? f.int8 : "float8" in f ? f.float8 : f.text)));

describe("binary COPY parser", () => {
  it("reads every row of a whole stream, NULLs and a header extension included", () => {
    expect(parseInChunks(encode(sample, Buffer.from("ext")), [])).toEqual(expected);
  });

  it("gives the same rows whatever byte the stream is cut at (every single cut)", () => {
    const small = encode(sample.slice(0, 2));
    for (let cut = 1; cut < small.length; cut++) expect(parseInChunks(small, [cut])).toEqual(expected.slice(0, 2));
  });

  test.prop([fc.array(fc.nat(), { maxLength: 40 })])("gives the same rows for any chunking", (cuts) => {
    const stream = encode(sample);
    expect(
      parseInChunks(
        stream,
        cuts.map((c) => c % stream.length),
      ),
    ).toEqual(expected);
  });

  it("refuses a stream that is not binary COPY, one cut short, or one with data after the trailer", () => {
    const stream = encode(sample);
    expect(() => new CopyBinaryParser().feed(Buffer.from("COPY 1\n" + "x".repeat(40)), () => {})).toThrow(/not a binary COPY/);
    const short = new CopyBinaryParser(4);
    short.feed(stream.subarray(0, stream.length - 5), () => {});
    expect(() => short.end()).toThrow(/ended early/);
    expect(() => new CopyBinaryParser(4).feed(Buffer.concat([stream, Buffer.from([0, 1])]), () => {})).toThrow(
      /after the binary COPY trailer/,
    );
  });
});

describe("chain checks over received bytes", () => {
  it("hash and envelope checks agree between a body as text and as its UTF-8 bytes", () => {
    const entry = { seq: 7, kind: "graphrag.answer", createdAt: "2026-11-21T10:00:00.000Z", payload: { q: "wer hat ß → 🚢?" } };
    const body = entryBodyOf(entry);
    const bytes = Buffer.from(body, "utf8");
    const prev = "ab".repeat(32);
    expect(hashOfBody(prev, bytes)).toBe(hashOfBody(prev, body));
    expect(bodyMatches(bytes, entry)).toBe(true);
    expect(bodyMatches(bytes, { ...entry, seq: 8 })).toBe(false);
    expect(bodyMatches(bytes, { ...entry, kind: "graphrag.answer2" })).toBe(false);
    expect(bodyMatches(bytes, { ...entry, createdAt: "2026-11-21T10:00:00.001Z" })).toBe(false);
    // A body larger than the reused input buffer.
    const big = Buffer.from(entryBodyOf({ ...entry, payload: { text: "é".repeat(40_000) } }), "utf8");
    expect(hashOfBody(prev, big)).toBe(hashOfBody(prev, big.toString("utf8")));
  });
});
