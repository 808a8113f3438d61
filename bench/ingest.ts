// Document ingest throughput (issue 17): pages/s and MB/s for a generated 200-page PDF and a DOCX of the same text,
// the chunk + link rate of the pure stages alone, rows/s for 10,000 call records, and whether memory stays flat with
// file size (call records streamed from a file: 10,000 vs 100,000 rows). Figures only, nothing asserted.
// `npm run bench -- ingest [--pages 200] [--rows 10000] [--pglite]`; with NODE_OPTIONS=--expose-gc the heap figures are
// what stays live (sampled after a collection) rather than peaks that include garbage.
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { readFile } from "node:fs/promises";
import { openDatabase, type Database } from "../lib/adapters/prisma/db";
import { importBundle } from "../lib/adapters/prisma/workspace";
import { PrismaLedger } from "../lib/adapters/prisma/ledger";
import { FileOriginalStore } from "../lib/adapters/documents/originals";
import { linkNodesOf } from "../lib/adapters/prisma/documents";
import { parseDocument } from "../lib/adapters/documents/parse";
import { loadActor } from "../lib/auth/actor";
import { DEFAULT_CHUNK_BOUNDS, chunkDocument } from "../lib/ingest/chunk";
import { buildLinkIndex, linkText } from "../lib/ingest/link";
import { regularise } from "../lib/ingest/regularise";
import { ingestDocuments, type IngestDeps, type IngestSource } from "../lib/server/ingest/ingest";
import { makeCsv, makeDocx, makePdf } from "../tests/support/documents";
import { printTable, scratchDatabase } from "./support";

const PEOPLE = ["Victor Marchetti", "Dmitri Kovac", "Raymond Dunn", "Ruth Okoye", "Elena Marsh"];
const PHONES = ["+1 (555) 0143", "555-0178", "+1-555-0199", "555.0121"];

function paragraph(page: number, i: number): string {
  const who = PEOPLE[(page + i) % PEOPLE.length];
  const phone = PHONES[(page * 3 + i) % PHONES.length];
  return (
    `On day ${page} the surveillance team saw ${who} near Pier ${(page % 12) + 1} at ${10 + (i % 9)}:${String((page * 7) % 60).padStart(2, "0")}. ` +
    `A call was placed from ${phone} to the warehouse office, and the black Tahoe HBR-4471 left shortly afterwards. ` +
    `The officer noted that the cargo was moved to a refrigerated van with a covered plate; no arrest was made.`
  );
}

function csvRows(n: number): Array<[string, string, string, number]> {
  const rows: Array<[string, string, string, number]> = [];
  for (let i = 0; i < n; i++) {
    const a = `+1-555-${String(100 + (i % 900)).padStart(4, "0")}`;
    const b = `+1-555-${String(100 + ((i * 7) % 900)).padStart(4, "0")}`;
    const t = new Date(Date.UTC(2025, 2, 1) + i * 60_000).toISOString();
    rows.push([a, b, t, 10 + (i % 600)]);
  }
  return rows;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; seconds: number; peakRssMb: number; peakHeapMb: number }> {
  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  // With --expose-gc (NODE_OPTIONS=--expose-gc) the heap is sampled after a collection: what is retained, not garbage.
  const gc = (globalThis as { gc?: () => void }).gc;
  const sample = setInterval(
    () => {
      gc?.();
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    },
    gc ? 250 : 20,
  );
  const t = performance.now();
  try {
    const value = await fn();
    return { value, seconds: (performance.now() - t) / 1000, peakRssMb: peakRss / 1048576, peakHeapMb: peakHeap / 1048576 };
  } finally {
    clearInterval(sample);
  }
}

export default async function run(args: string[]) {
  const { values } = parseArgs({ args, options: { pages: { type: "string" }, rows: { type: "string" }, pglite: { type: "boolean" } } });
  const pages = Number(values.pages ?? 200);
  const rows = Number(values.rows ?? 10_000);
  const dir = await mkdtemp(path.join(tmpdir(), "cg-bench-ingest-"));
  const scratch = values.pglite ? null : await scratchDatabase("cg_bench_ingest");
  const db: Database = scratch
    ? await openDatabase({ url: scratch.url, migrate: true })
    : await openDatabase({ dataDir: "memory://", migrate: true });
  try {
    await importBundle(db, JSON.parse(await readFile("prisma/demo/workspace.json", "utf8")));
    const actor = await loadActor(db.prisma, { email: "admin@metro.example" }, "cli");
    const deps: IngestDeps = {
      db,
      ledger: new PrismaLedger(db),
      originals: new FileOriginalStore(path.join(dir, "originals")),
      settings: {
        maxBytes: 512 * 1024 * 1024,
        maxPdfPages: 10_000,
        chunks: DEFAULT_CHUNK_BOUNDS,
        originalsDir: path.join(dir, "originals"),
      },
    };
    const ingest = (sources: IngestSource[]) =>
      ingestDocuments(deps, actor, "case-harbor", sources, { markings: { license: "LIC-INTERNAL" }, channel: "bench" });

    console.log(`generating a ${pages}-page PDF, a DOCX of the same text and ${rows} call records…`);
    const text = Array.from({ length: pages }, (_, p) => [paragraph(p + 1, 0), paragraph(p + 1, 1), paragraph(p + 1, 2)]);
    const pdf = await makePdf(text);
    const docx = await makeDocx(text.flatMap((paras, p) => [{ heading: `Day ${p + 1}` }, ...paras.map((t) => ({ text: t }))]));
    const csvFile = path.join(dir, "calls.csv");
    await writeFile(csvFile, makeCsv(csvRows(rows)));
    const bigCsvFile = path.join(dir, "calls-10x.csv");
    await writeFile(bigCsvFile, makeCsv(csvRows(rows * 10)));

    // The pure stages alone, on the PDF's text: regularise + chunk + link against the demo case's nodes.
    const parsed = await parseDocument("bench.pdf", "pdf", pdf);
    const index = buildLinkIndex(await linkNodesOf(db.prisma, "case-harbor"));
    const stages = async () => {
      const doc = regularise(parsed.blocks, parsed.pages);
      const chunks = chunkDocument(doc);
      let links = 0;
      for (const c of chunks) links += linkText(index, c.text).length;
      return { chunks: chunks.length, links };
    };
    await stages(); // the first run compiles the extractors' regular expressions
    const pure = await timed(stages);

    const mb = (n: number) => n / 1048576;
    const measure = async (input: string, source: IngestSource, bytes: number, units?: { n: number; unit: string }) => {
      const run = await timed(() => ingest([source]));
      const f = run.value.files[0];
      return {
        input,
        MB: +mb(bytes).toFixed(2),
        seconds: +run.seconds.toFixed(2),
        rate: units ? `${Math.round(units.n / run.seconds)} ${units.unit}/s` : "-",
        "MB/s": +(mb(bytes) / run.seconds).toFixed(2),
        items: f.ok ? f.evidence : f.error.code,
        "peak RSS MB": Math.round(run.peakRssMb),
        "peak heap MB": Math.round(run.peakHeapMb),
      };
    };
    const csvBytes = (await stat(csvFile)).size;
    const bigBytes = (await stat(bigCsvFile)).size;
    const results = [
      await measure(`PDF, ${pages} pages`, { name: "bench.pdf", bytes: pdf }, pdf.length, { n: pages, unit: "pages" }),
      await measure(`DOCX, same text (${pages} sections)`, { name: "bench.docx", bytes: docx }, docx.length),
      await measure(`CSV, ${rows} call records`, { name: "calls.csv", path: csvFile }, csvBytes, { n: rows, unit: "rows" }),
      await measure(`CSV, ${rows * 10} call records`, { name: "calls-10x.csv", path: bigCsvFile }, bigBytes, {
        n: rows * 10,
        unit: "rows",
      }),
    ];
    printTable(`document ingest into ${db.kind} (one transaction per document, ledger entry included)`, results);
    printTable("regularise + chunk + link alone, warm (the PDF's text; the demo case's 58 nodes)", [
      {
        chunks: pure.value.chunks,
        links: pure.value.links,
        seconds: +pure.seconds.toFixed(3),
        "chunks/s": Math.round(pure.value.chunks / pure.seconds),
        "chars/s": Math.round(parsed.blocks.reduce((n, b) => n + b.text.length, 0) / pure.seconds),
      },
    ]);
    console.log(
      `memory with file size (CSV streamed from disk): peak heap ${results[2]["peak heap MB"]} MB for ${rows} rows, ` +
        `${results[3]["peak heap MB"]} MB for ${rows * 10} rows (${(bigBytes / csvBytes).toFixed(1)}× the bytes)`,
    );
  } finally {
    await db.close();
    await scratch?.drop();
    await rm(dir, { recursive: true, force: true });
  }
}
