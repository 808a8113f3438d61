// CSV call-detail records (issue 17), streamed: rows are read one at a time from the file (csv-parse), so memory
// stays flat however long the file is. The header decides the columns (lib/ingest/call-records.ts).
import "server-only";
import type { Readable } from "node:stream";
import { callColumns, callRecord, type CallColumns, type CallRecord } from "../../ingest/call-records";
import { failure } from "./parse";

/** Call records of a CSV stream, in file order; a bad header or row is CG-INGEST-012 naming the file and line. */
export async function* callRecords(file: string, source: Readable): AsyncGenerator<CallRecord> {
  const { parse } = await import("csv-parse");
  const parser = source.pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true, trim: true, info: true, max_record_size: 64 * 1024 }),
  );
  let cols: CallColumns | null = null;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!cols) {
        const found = callColumns(record);
        if ("missing" in found) throw failure("CG-INGEST-012", file, `has no ${found.missing} column in its header`);
        cols = found;
        continue;
      }
      const r = callRecord(cols, record, info.lines);
      if ("problem" in r) throw failure("CG-INGEST-012", file, r.problem);
      yield r;
    }
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith("CG-")) throw err;
    throw failure("CG-INGEST-001", file, `is not a readable CSV file: ${(err as Error).message.split("\n")[0].slice(0, 200)}`, err);
  } finally {
    source.destroy();
  }
  if (!cols) throw failure("CG-INGEST-012", file, "is empty");
}
