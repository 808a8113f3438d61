// Evidence from documents (issue 17): one batch of files into marked, linked, citable evidence of one case. The
// API route, the case page's "Add evidence" panel and the CLI all run ingestDocuments.
//
// Per file, all or nothing: size limit (before reading) → type by content, checked against the name → the original
// kept (content-addressed; a file the case already holds is reported as a duplicate, not stored twice) → parse →
// regularise → chunk at sentence boundaries → link each chunk to the case's nodes → ONE transaction: the document
// row, its evidence, new nodes and edges (mirrored into Neo4j inside it when configured) and its ledger entry. A
// failure is a coded error naming the file, with nothing of that document written; the rest of the batch goes on.
// An e-mail's attachments are ingested after it, each as its own document.
import "server-only";
import { open, readFile, stat } from "node:fs/promises";
import { createReadStream } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { Actor } from "../../auth/actor";
import { CasegraphError, type FailureIssue } from "../../domain/failure-codes";
import type { Database } from "../../adapters/prisma/db";
import type { SqlSession } from "../../adapters/prisma/migrate";
import { appendInSession } from "../../adapters/prisma/ledger";
import {
  insertEdges,
  insertEvidence,
  insertNodes,
  type EdgeRow,
  type EvidenceRow,
  type GraphRows,
  type NodeRow,
} from "../../adapters/prisma/workspace";
import { documentBySha, insertDocument, linkNodesOf, type DocumentRow } from "../../adapters/prisma/documents";
import { DEFAULT_ZIP_LIMITS } from "../../adapters/documents/zip-guard";
import { failure, parseDocument, type Attachment } from "../../adapters/documents/parse";
import { callRecords } from "../../adapters/documents/csv";
import { sniff } from "../../adapters/documents/sniff";
import type { OriginalStore } from "../../adapters/documents/originals";
import { mirroredGraphWrite } from "../../adapters/neo4j/sync";
import type { Neo4jGraphStore } from "../../adapters/neo4j/graph-store";
import type { AnswerModel, Ledger } from "../../ports";
import { proposeFromDocument } from "./proposals";
import { chunkDocument } from "../../ingest/chunk";
import { regularise, structureCounts } from "../../ingest/regularise";
import { buildLinkIndex, linkText, type Link, type LinkIndex } from "../../ingest/link";
import { callRecordText, phoneNodeId, type CallRecord } from "../../ingest/call-records";
import { decideKind, DEFAULT_EVIDENCE_TYPE, MEDIA_TYPES, type DocumentKind } from "../../ingest/kinds";
import { resolveMarkings, type DocumentMarkings, type MarkingInput } from "../../ingest/markings";
import { forgedMarkerIn } from "../../grounding/lifecycle";
import { assertMayIngest, type IngestCase } from "./authorize";
import type { IngestSettings } from "./settings";

export const INGEST_KIND = "evidence.ingest";
export const INGEST_REFUSED_KIND = "evidence.ingest_refused";
/** Evidence rows per INSERT (a CSV of call records is written in batches, inside its one transaction). */
const EVIDENCE_BATCH = 1_000;
const MAX_ATTACHMENT_DEPTH = 3;
const SNIFF_BYTES = 1024 * 1024;

/** One file of a batch: a path (CLI) or bytes (an upload), with its own markings over the batch's if given. */
export interface IngestSource {
  name: string;
  path?: string;
  bytes?: Buffer;
  markings?: MarkingInput;
}

export type IngestPhase = "reading" | "parsing" | "writing" | "done" | "failed";

export interface IngestProgress {
  file: string;
  phase: IngestPhase;
  /** Files finished in the batch (attachments count as files of their own) and files known so far. */
  filesDone: number;
  filesTotal: number;
  /** Rows or chunks written of this file, when known. */
  items?: number;
}

export interface IngestedFile {
  file: string;
  ok: true;
  documentId: string;
  sha256: string;
  kind: DocumentKind;
  /** The case already held these bytes: nothing new was stored. */
  duplicateOf?: string;
  pages: number | null;
  evidence: number;
  links: number;
  linkedNodes: number;
  nodes: number;
  edges: number;
  warnings: string[];
  parentId?: string;
  /** Nodes and edges the generative model proposed (pending an investigator's decision), and those its checks dropped. */
  proposals?: { proposed: number; rejected: number };
}

export interface RefusedFile {
  file: string;
  ok: false;
  error: { code: string; message: string; issues?: FailureIssue[] };
  parentId?: string;
}

export type FileResult = IngestedFile | RefusedFile;

export interface BatchResult {
  caseId: string;
  files: FileResult[];
  ingested: number;
  duplicates: number;
  refused: number;
}

export interface IngestDeps {
  db: Database;
  ledger: Ledger;
  originals: OriginalStore;
  settings: IngestSettings;
  /** The process's Neo4j store when NEO4J_URI is set: new nodes and edges go there in the same unit of work. */
  neo4j?: Neo4jGraphStore;
  /** A generative model, when one is configured: it proposes nodes and edges for an investigator to accept. */
  proposer?: AnswerModel;
}

export interface IngestOptions {
  markings?: MarkingInput;
  onProgress?: (p: IngestProgress) => void;
  /** Where the upload came from, for the default source system ("upload", "cli", "api"). */
  channel?: string;
  now?: Date;
}

interface Ctx {
  deps: IngestDeps;
  actor: Actor;
  target: IngestCase;
  options: IngestOptions;
  results: FileResult[];
  filesTotal: number;
  linkIndex?: Promise<{ index: LinkIndex; nodeIds: Set<string> }>;
}

export async function ingestDocuments(
  deps: IngestDeps,
  actor: Actor,
  caseId: string,
  sources: readonly IngestSource[],
  options: IngestOptions = {},
): Promise<BatchResult> {
  const target = await assertMayIngest(deps.db.prisma, actor, caseId);
  // The batch's markings are checked once, before any file is read.
  resolveFor(target, options, undefined);
  const ctx: Ctx = { deps, actor, target, options, results: [], filesTotal: sources.length };
  for (const source of sources) await ingestOne(ctx, source, undefined, 0);
  const ok = ctx.results.filter((r): r is IngestedFile => r.ok);
  return {
    caseId: target.caseId,
    files: ctx.results,
    ingested: ok.filter((r) => !r.duplicateOf).length,
    duplicates: ok.filter((r) => r.duplicateOf).length,
    refused: ctx.results.length - ok.length,
  };
}

function resolveFor(target: IngestCase, options: IngestOptions, own: MarkingInput | undefined): DocumentMarkings {
  const merged: MarkingInput = { ...(options.markings ?? {}) };
  for (const [k, v] of Object.entries(own ?? {})) if (v !== undefined && v !== null && v !== "") (merged as Record<string, unknown>)[k] = v;
  return resolveMarkings(merged, {
    caseClassification: target.classification,
    licenses: target.licenses,
    defaultSourceSystem: options.channel ?? "upload",
    now: options.now ?? new Date(),
  });
}

function progress(ctx: Ctx, file: string, phase: IngestPhase, items?: number) {
  ctx.options.onProgress?.({
    file,
    phase,
    filesDone: ctx.results.length,
    filesTotal: ctx.filesTotal,
    ...(items === undefined ? {} : { items }),
  });
}

async function ingestOne(ctx: Ctx, source: IngestSource, parentId: string | undefined, depth: number): Promise<void> {
  const file = path.basename(source.name) || "unnamed";
  let sha256: string | undefined;
  try {
    progress(ctx, file, "reading");
    const markings = resolveFor(ctx.target, ctx.options, source.markings);
    const size = source.bytes ? source.bytes.length : await stat(source.path!).then((s) => s.size);
    if (size > ctx.deps.settings.maxBytes) {
      throw failure("CG-INGEST-002", file, `is ${size} bytes (limit ${ctx.deps.settings.maxBytes})`);
    }
    if (size === 0) throw failure("CG-INGEST-007", file, "is empty");
    const head = source.bytes ?? (await readHead(source.path!));
    const decided = decideKind(file, await sniff(head));
    if ("code" in decided) throw failure(decided.code, file, decided.why);
    const kind = decided.kind;
    const type = markings.type ?? DEFAULT_EVIDENCE_TYPE[kind];
    if (ctx.target.evidenceTypes.length && !ctx.target.evidenceTypes.includes(type)) {
      throw new CasegraphError("CG-GROUND-001", `${file}: evidence type "${type}" is not accepted by the tenant`, [
        { path: file, message: `type "${type}" is not in the tenant's accepted types` },
      ]);
    }
    // Kept before parsing: the original is content-addressed, so a later failure leaves an unreferenced copy at most.
    const bytes = kind === "csv" && !source.bytes ? undefined : (source.bytes ?? (await readFile(source.path!)));
    sha256 = bytes ? await ctx.deps.originals.put(bytes) : await ctx.deps.originals.putFile(source.path!);
    const prior = await documentBySha(ctx.deps.db.prisma, ctx.target.caseId, sha256);
    const documentId = `DOC-${sha256.slice(0, 16)}`;
    if (prior) {
      ctx.results.push({
        file,
        ok: true,
        documentId: prior.id,
        sha256,
        kind,
        duplicateOf: prior.name,
        pages: null,
        evidence: 0,
        links: 0,
        linkedNodes: 0,
        nodes: 0,
        edges: 0,
        warnings: [`the case already holds this file as "${prior.name}"; nothing new was stored`],
        ...(parentId ? { parentId } : {}),
      });
      progress(ctx, file, "done");
      return;
    }
    const base = {
      caseId: ctx.target.caseId,
      id: documentId,
      tenantId: ctx.target.tenantId,
      sha256,
      name: file,
      kind,
      mediaType: MEDIA_TYPES[kind],
      size,
      parentId: parentId ?? null,
      markings: { ...markings, type },
      uploadedBy: ctx.actor.email,
    };
    progress(ctx, file, "parsing");
    const written =
      kind === "csv"
        ? await writeCallRecords(ctx, base, source.bytes ? Readable.from([source.bytes]) : createReadStream(source.path!))
        : await writeDocument(ctx, base, bytes!);
    ctx.results.push({ file, ok: true, ...written.result, ...(parentId ? { parentId } : {}) });
    progress(ctx, file, "done");
    if (written.attachments.length) {
      ctx.filesTotal += written.attachments.length;
      for (const a of written.attachments) {
        if (depth + 1 > MAX_ATTACHMENT_DEPTH) {
          ctx.results.push(refused(a.name, failure("CG-INGEST-001", a.name, "is nested too deep in attachments"), documentId));
          continue;
        }
        await ingestOne(ctx, { name: a.name, bytes: a.bytes, markings: source.markings }, documentId, depth + 1);
      }
    }
  } catch (err) {
    const e = err instanceof CasegraphError ? err : new CasegraphError("CG-INGEST-011", `${file}: could not be stored`, [], { cause: err });
    if (e.code === "CG-INGEST-011" || e.code === "CG-SYS-002") console.error(`casegraph: ingest of ${file} failed`, err);
    ctx.results.push(refused(file, e, parentId));
    progress(ctx, file, "failed");
    await recordRefusal(ctx, source, file, e, sha256, parentId);
  }
}

function refused(file: string, e: CasegraphError, parentId: string | undefined): RefusedFile {
  const { error } = e.toJSON();
  return { file, ok: false, error, ...(parentId ? { parentId } : {}) };
}

async function readHead(file: string): Promise<Buffer> {
  const fh = await open(file, "r");
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** A refused file leaves a ledger entry too: who tried to add what, and why it was refused (never its content). */
async function recordRefusal(
  ctx: Ctx,
  source: IngestSource,
  file: string,
  e: CasegraphError,
  sha256: string | undefined,
  parentId: string | undefined,
) {
  let markings: { classification: string; needToKnow: string[] } | undefined;
  try {
    const m = resolveFor(ctx.target, ctx.options, source.markings);
    markings = { classification: m.classification, needToKnow: m.needToKnow };
  } catch {
    // Unreadable markings: the entry has none, and reviewers see no file name (lib/domain/audit-redaction.ts).
  }
  try {
    await ctx.deps.ledger.append({
      kind: INGEST_REFUSED_KIND,
      tenantId: ctx.target.tenantId,
      actorId: ctx.actor.userId,
      caseId: ctx.target.caseId,
      payload: {
        actor: actorOf(ctx.actor),
        caseId: ctx.target.caseId,
        document: { name: file, ...(sha256 ? { sha256 } : {}), ...(parentId ? { parentId } : {}) },
        ...(markings ? { markings } : {}),
        code: e.code,
      },
    });
  } catch (err) {
    console.error(`casegraph: the refusal of ${file} could not be recorded in the ledger`, err);
  }
}

const actorOf = (a: Actor) => ({ id: a.userId, email: a.email, via: a.via, tenantId: a.tenantId });

type Base = Omit<DocumentRow, "pages" | "metadata" | "text" | "structure" | "counts">;

interface Written {
  result: Omit<IngestedFile, "file" | "ok" | "parentId">;
  attachments: Attachment[];
}

async function linkIndexOf(ctx: Ctx): Promise<{ index: LinkIndex; nodeIds: Set<string> }> {
  ctx.linkIndex ??= linkNodesOf(ctx.deps.db.prisma, ctx.target.caseId).then((nodes) => ({
    index: buildLinkIndex(nodes),
    nodeIds: new Set(nodes.map((n) => n.id)),
  }));
  return ctx.linkIndex;
}

const linksMetadata = (links: readonly Link[]) => links.map((l) => ({ node: l.nodeId, kind: l.kind, matched: l.matched, value: l.value }));

function evidenceRow(
  base: Base,
  id: string,
  content: string,
  metadata: Record<string, unknown>,
  nodeIds: string[],
  collectedAt?: string,
): EvidenceRow {
  const m = base.markings;
  return {
    id,
    tenantId: base.tenantId,
    type: m.type,
    content,
    sourceSystem: m.sourceSystem,
    classification: m.classification,
    needToKnow: m.needToKnow,
    license: m.license,
    collectedAt: collectedAt ?? m.collectedAt,
    metadata,
    nodeIds: [...new Set(nodeIds)].sort(),
    validUntil: null,
  };
}

const evidenceId = (documentId: string, n: number) => `${documentId}-${String(n).padStart(5, "0")}`;

/** PDF, DOCX, HTML, Markdown, text, e-mail: parse whole, chunk, link, write. */
async function writeDocument(ctx: Ctx, base: Base, bytes: Buffer): Promise<Written> {
  const { settings } = ctx.deps;
  const parsed = await parseDocument(base.name, base.kind as DocumentKind, bytes, {
    maxPdfPages: settings.maxPdfPages,
    zip: DEFAULT_ZIP_LIMITS,
  });
  const doc = regularise(parsed.blocks, parsed.pages);
  if (!doc.text) throw failure("CG-INGEST-007", base.name, "has no text");
  const forged = forgedMarkerIn(doc.text);
  if (forged) throw failure("CG-INGEST-013", base.name, `carries a forged ${forged.reason} marker ("${forged.marker}")`);
  const chunks = chunkDocument(doc, settings.chunks);
  const { index } = await linkIndexOf(ctx);
  let links = 0;
  const linked = new Set<string>();
  const rows = chunks.map((c) => {
    const found = linkText(index, c.text);
    links += found.length;
    for (const l of found) linked.add(l.nodeId);
    return evidenceRow(
      base,
      evidenceId(base.id, c.index + 1),
      c.text,
      {
        documentId: base.id,
        document: base.name,
        ...(c.page !== null ? { page: c.page } : {}),
        ...(c.pageEnd !== null && c.pageEnd !== c.page ? { pageEnd: c.pageEnd } : {}),
        start: c.start,
        end: c.end,
        ...(c.section ? { section: c.section } : {}),
        chunk: c.index + 1,
        ...(found.length ? { links: linksMetadata(found) } : {}),
      },
      found.map((l) => l.nodeId),
    );
  });
  const counts = {
    ...structureCounts(doc),
    evidence: rows.length,
    links,
    linkedNodes: linked.size,
    nodes: 0,
    edges: 0,
    ...(Array.isArray(parsed.metadata.pagesWithoutText) ? { pagesWithoutText: parsed.metadata.pagesWithoutText.length } : {}),
    ...(parsed.attachments.length ? { attachments: parsed.attachments.length } : {}),
  };
  progress(ctx, base.name, "writing", rows.length);
  await transaction(ctx, base.name, async (sql) => {
    await insertDocument(sql, {
      ...base,
      pages: doc.pages,
      metadata: parsed.metadata,
      text: doc.text,
      structure: { sections: doc.sections },
      counts,
    });
    for (let i = 0; i < rows.length; i += EVIDENCE_BATCH) await insertEvidence(sql, base.caseId, rows.slice(i, i + EVIDENCE_BATCH));
    await appendInSession(sql, [ledgerEntry(ctx, base, doc.pages, counts)]);
  });
  // After the document is stored: a model's proposals never hold up or undo the document itself.
  let proposals: IngestedFile["proposals"];
  const warnings = [...parsed.warnings];
  if (ctx.deps.proposer) {
    try {
      const m = base.markings;
      proposals = await proposeFromDocument(
        ctx.deps.db,
        ctx.deps.proposer,
        ctx.actor,
        {
          caseId: base.caseId,
          tenantId: base.tenantId,
          documentId: base.id,
          name: base.name,
          classification: m.classification,
          needToKnow: m.needToKnow,
        },
        rows.map((r) => ({ id: r.id, text: r.content })),
      );
    } catch (err) {
      warnings.push(`no graph proposals: ${err instanceof CasegraphError ? err.code : "the model failed"}`);
    }
  }
  return {
    result: {
      documentId: base.id,
      sha256: base.sha256,
      kind: base.kind as DocumentKind,
      pages: doc.pages,
      evidence: rows.length,
      links,
      linkedNodes: linked.size,
      nodes: 0,
      edges: 0,
      warnings,
      ...(proposals ? { proposals } : {}),
    },
    attachments: parsed.attachments,
  };
}

/** A CSV of call records, streamed row by row inside its one transaction; numbers without a node get one. */
async function writeCallRecords(ctx: Ctx, base: Base, stream: Readable): Promise<Written> {
  const { index, nodeIds } = await linkIndexOf(ctx);
  const m = base.markings;
  const newNodes = new Map<string, NodeRow>();
  const pairs = new Map<
    string,
    { source: string; target: string; calls: number; seconds: number; first: string | null; last: string | null }
  >();
  let links = 0;
  let rowsWritten = 0;
  const linked = new Set<string>();
  const phoneNode = (number: string, found: Link[]): string => {
    const digits = number.replace(/\D/g, "");
    const hit = found.find((l) => l.kind === "phone" && phoneMatches(l.matched, digits));
    if (hit) return hit.nodeId;
    const id = phoneNodeId(number);
    if (!nodeIds.has(id) && !newNodes.has(id)) {
      newNodes.set(id, {
        id,
        label: "Phone",
        name: number,
        properties: { name: number, number, source: `call records ${base.name}` },
        classification: m.classification,
        needToKnow: m.needToKnow,
      });
    }
    return id;
  };
  const rowOf = (r: CallRecord, n: number): EvidenceRow => {
    const text = callRecordText(r);
    const found = linkText(index, text);
    const caller = phoneNode(r.caller, found);
    const callee = phoneNode(r.callee, found);
    links += found.length;
    for (const l of found) linked.add(l.nodeId);
    const key = `${caller}\u0000${callee}`;
    const pair = pairs.get(key) ?? { source: caller, target: callee, calls: 0, seconds: 0, first: null, last: null };
    pair.calls++;
    pair.seconds += r.durationSeconds ?? 0;
    if (r.at && (!pair.first || r.at < pair.first)) pair.first = r.at;
    if (r.at && (!pair.last || r.at > pair.last)) pair.last = r.at;
    pairs.set(key, pair);
    return evidenceRow(
      base,
      evidenceId(base.id, n),
      text,
      {
        documentId: base.id,
        document: base.name,
        line: r.line,
        caller: r.caller,
        callee: r.callee,
        ...(r.at ? { at: r.at } : { time: r.timeText }),
        ...(r.durationSeconds !== null ? { durationSeconds: r.durationSeconds } : {}),
        ...(found.length ? { links: linksMetadata(found) } : {}),
      },
      [caller, callee, ...found.map((l) => l.nodeId)],
      r.at ?? undefined,
    );
  };
  const run = async (mirror?: (rows: GraphRows) => Promise<void>) =>
    ctx.deps.db.transaction(async (sql) => {
      let batch: EvidenceRow[] = [];
      for await (const r of callRecords(base.name, stream)) {
        batch.push(rowOf(r, ++rowsWritten));
        if (batch.length >= EVIDENCE_BATCH) {
          await insertEvidence(sql, base.caseId, batch);
          progress(ctx, base.name, "writing", rowsWritten);
          batch = [];
        }
      }
      await insertEvidence(sql, base.caseId, batch);
      if (!rowsWritten) throw failure("CG-INGEST-012", base.name, "has a header but no call records");
      const nodes = [...newNodes.values()];
      const edges: EdgeRow[] = [...pairs.values()].map((p) => ({
        id: `${base.id}:CALLED:${p.source}:${p.target}`,
        source: p.source,
        target: p.target,
        type: "CALLED",
        properties: {
          calls: p.calls,
          seconds: p.seconds,
          ...(p.first ? { first: p.first } : {}),
          ...(p.last ? { last: p.last } : {}),
          documentId: base.id,
        },
        classification: m.classification,
        needToKnow: m.needToKnow,
      }));
      if (nodes.length) await insertNodes(sql, base.caseId, base.tenantId, nodes);
      if (edges.length) await insertEdges(sql, base.caseId, base.tenantId, edges);
      await mirror?.({ caseId: base.caseId, tenantId: base.tenantId, nodes, edges });
      const counts = {
        evidence: rowsWritten,
        rows: rowsWritten,
        links,
        linkedNodes: linked.size,
        nodes: nodes.length,
        edges: edges.length,
      };
      await insertDocument(sql, { ...base, pages: null, metadata: {}, text: "", structure: { sections: [] }, counts });
      await appendInSession(sql, [ledgerEntry(ctx, base, null, counts)]);
      return counts;
    });
  let counts: Awaited<ReturnType<typeof run>>;
  try {
    counts = ctx.deps.neo4j
      ? (await mirroredGraphWrite(ctx.deps.db, ctx.deps.neo4j, [base.caseId], (mirror) => run(mirror))).result
      : await run();
  } catch (err) {
    throw writeError(base.name, err);
  }
  // Nodes made here are known to the next file of the batch.
  for (const id of newNodes.keys()) nodeIds.add(id);
  return {
    result: {
      documentId: base.id,
      sha256: base.sha256,
      kind: "csv",
      pages: null,
      evidence: counts.evidence,
      links: counts.links,
      linkedNodes: counts.linkedNodes,
      nodes: counts.nodes,
      edges: counts.edges,
      warnings: [],
    },
    attachments: [],
  };
}

const phoneMatches = (matched: string, digits: string) => {
  const a = matched.replace(/\D/g, "");
  return a === digits || (Math.min(a.length, digits.length) >= 7 && (a.endsWith(digits) || digits.endsWith(a)));
};

async function transaction(ctx: Ctx, file: string, fn: (sql: SqlSession) => Promise<void>): Promise<void> {
  try {
    await ctx.deps.db.transaction(fn);
  } catch (err) {
    throw writeError(file, err);
  }
}

function writeError(file: string, err: unknown): CasegraphError {
  if (err instanceof CasegraphError) return err;
  return new CasegraphError("CG-INGEST-011", `${file}: could not be stored; nothing of it was written`, [], { cause: err });
}

function ledgerEntry(ctx: Ctx, base: Base, pages: number | null, counts: Record<string, unknown>) {
  const m = base.markings;
  return {
    kind: INGEST_KIND,
    tenantId: base.tenantId,
    actorId: ctx.actor.userId,
    caseId: base.caseId,
    payload: {
      actor: actorOf(ctx.actor),
      caseId: base.caseId,
      document: {
        id: base.id,
        name: base.name,
        sha256: base.sha256,
        kind: base.kind,
        mediaType: base.mediaType,
        size: base.size,
        pages,
        ...(base.parentId ? { parentId: base.parentId } : {}),
      },
      markings: {
        classification: m.classification,
        needToKnow: m.needToKnow,
        license: m.license,
        sourceSystem: m.sourceSystem,
        collectedAt: m.collectedAt,
        type: m.type,
      },
      counts,
    } as Record<string, unknown>,
  };
}
