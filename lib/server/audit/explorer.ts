// The supervisors' audit explorer: a filtered, keyset-paginated view over the ledger of the viewer's own tenant, and
// the detail of one entry. Filters on answer fields use the expression and partial indexes of migration
// 20261121030000_ledger, written here exactly as the index predicates so the planner can use them; pagination is
// `seq < cursor ORDER BY seq DESC`, an index range scan whatever the ledger's size. Evidence cited by an answer is shown
// only when the viewer's own clearance, need-to-know and the item's license allow it (lib/domain/policy.ts), never
// because the viewer is a supervisor.
import "server-only";
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import { CasegraphError } from "../../domain/failure-codes";
import { readLicenseUses, readMarking, type StoredClassification } from "../../domain/markings";
import { mayViewEvidence } from "../../domain/policy";
import { sha256Hex } from "../../domain/ledger-chain";
import type { AuditLedger } from "../../ports";
import { reviewerRedactor, type ReviewerStores } from "./visibility";
import { revocationFlag } from "../../grounding/flags";

export const PAGE_SIZE = 50;

const optionalText = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((v) => (v ? v : undefined));
const flag = z
  .union([z.boolean(), z.enum(["1", "0", "true", "false", "on", ""])])
  .optional()
  .transform((v) => v === true || v === "1" || v === "true" || v === "on");
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "use YYYY-MM-DD")
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), "not a date")
  .optional()
  .or(z.literal("").transform(() => undefined));

export const explorerFiltersSchema = z.object({
  user: optionalText,
  case: optionalText,
  /** Inclusive UTC days. */
  from: day,
  to: day,
  kind: z.enum(["all", "answers", "admin", "audit"]).optional().default("all"),
  responseType: optionalText,
  needsReview: flag,
  citationsOutside: flag,
  policyFiltered: flag,
  model: optionalText,
  promptVersion: optionalText,
  q: optionalText,
  /** A thread's turns together (issue 18). */
  thread: optionalText,
});

export type ExplorerFilters = z.infer<typeof explorerFiltersSchema>;

export interface AuditRow {
  seq: number;
  createdAt: string;
  kind: string;
  actorId: string | null;
  actorName: string | null;
  actorEmail: string | null;
  caseId: string | null;
  responseType: string | null;
  confidence: number | null;
  needsReview: boolean;
  model: string | null;
  promptVersion: string | null;
  policyFiltered: number | null;
  allCitationsInContext: boolean | null;
  citationCount: number | null;
  latencyMs: number | null;
  question: string | null;
  questionErased: boolean;
  /** For non-answer entries: what the entry is about (e.g. "user u-123"). */
  target: string | null;
  /** The thread and turn of an answer entry (issue 18). */
  threadId: string | null;
  threadTurn: number | null;
}

/** Search words → a prefix tsquery over the stored question text ('simple' config), or null when nothing is left. */
export function questionQuery(q: string): string | null {
  const words = (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
  return words.length ? words.map((w) => `${w}:*`).join(" & ") : null;
}

interface Built {
  where: string[];
  params: unknown[];
}

function buildWhere(tenantId: string, f: ExplorerFilters, cursor: number | undefined): Built {
  const params: unknown[] = [tenantId];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = [`l.tenant_id = $1`];
  if (cursor !== undefined) where.push(`l.seq < ${p(cursor)}`);
  if (f.user) where.push(`l.actor_id = ${p(f.user)}`);
  if (f.case) where.push(`l.case_id = ${p(f.case)}`);
  if (f.kind === "answers") where.push(`l.kind = 'graphrag.answer'`);
  if (f.kind === "admin") where.push(`l.kind LIKE 'admin.%'`);
  if (f.kind === "audit") where.push(`l.kind LIKE 'audit.%'`);
  // Entry times never go backwards (the insert trigger), so a day range is a seq range: two index probes.
  if (f.from)
    where.push(
      `l.seq >= (SELECT seq FROM "ledger" WHERE created_at >= ${p(`${f.from}T00:00:00.000Z`)}::timestamptz ORDER BY created_at, seq LIMIT 1)`,
    );
  if (f.to) {
    const end = new Date(Date.parse(`${f.to}T00:00:00.000Z`) + 86_400_000).toISOString();
    where.push(`l.seq <= (SELECT seq FROM "ledger" WHERE created_at < ${p(end)}::timestamptz ORDER BY created_at DESC, seq DESC LIMIT 1)`);
  }
  if (f.responseType) where.push(`(l.payload ->> 'response_type') = ${p(f.responseType)}`);
  if (f.model) where.push(`(l.payload ->> 'model') = ${p(f.model)}`);
  if (f.promptVersion) where.push(`(l.payload ->> 'prompt_version') = ${p(f.promptVersion)}`);
  if (f.needsReview) where.push(`(l.payload -> 'needs_review') = 'true'::jsonb`);
  if (f.citationsOutside) where.push(`(l.payload -> 'all_citations_in_context') = 'false'::jsonb`);
  if (f.policyFiltered) where.push(`(l.payload -> 'policy_filtered_count') > '0'::jsonb`);
  // The partial expression index of migration 20261126100000_threads, written as its predicate.
  if (f.thread) where.push(`l.payload ? 'thread_id' AND (l.payload ->> 'thread_id') = ${p(f.thread)}`);
  if (f.q) {
    const tsq = questionQuery(f.q);
    where.push(
      tsq === null ? "false" : `l.seq IN (SELECT r.seq FROM "ledger_redactable" r WHERE r.search @@ to_tsquery('simple', ${p(tsq)}))`,
    );
  }
  return { where, params };
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export async function listAuditEntries(
  prisma: PrismaClient,
  actor: Pick<Actor, "tenantId">,
  filters: ExplorerFilters,
  cursor?: number,
  limit = PAGE_SIZE,
): Promise<{ rows: AuditRow[]; nextCursor: number | null }> {
  const { where, params } = buildWhere(actor.tenantId, filters, cursor);
  params.push(limit + 1);
  const rows = await prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(
    `SELECT l.seq, l.created_at, l.kind, l.actor_id, l.case_id,
            l.payload ->> 'response_type' AS response_type, l.payload -> 'confidence' AS confidence,
            l.payload -> 'needs_review' AS needs_review, l.payload ->> 'model' AS model,
            l.payload ->> 'prompt_version' AS prompt_version, l.payload -> 'policy_filtered_count' AS policy_filtered,
            l.payload -> 'all_citations_in_context' AS all_in_context, l.payload -> 'citation_count' AS citation_count,
            l.payload -> 'latency_ms' AS latency_ms, l.payload -> 'target' AS target,
            l.payload ->> 'thread_id' AS thread_id, l.payload -> 'thread_turn' AS thread_turn,
            r.question_text, r.erased_at, u.name AS actor_name, u.email AS actor_email
       FROM (SELECT * FROM "ledger" l WHERE ${where.join(" AND ")} ORDER BY l.seq DESC LIMIT $${params.length}) l
       LEFT JOIN "ledger_redactable" r ON r.seq = l.seq
       LEFT JOIN "user" u ON u.id = l.actor_id
      ORDER BY l.seq DESC`,
    ...params,
  );
  const more = rows.length > limit;
  const page = rows.slice(0, limit).map((r): AuditRow => {
    const target = r.target as { type?: string; id?: string } | null;
    return {
      seq: Number(r.seq),
      createdAt: new Date(r.created_at as string).toISOString(),
      kind: r.kind as string,
      actorId: (r.actor_id as string) ?? null,
      actorName: (r.actor_name as string) ?? null,
      actorEmail: (r.actor_email as string) ?? null,
      caseId: (r.case_id as string) ?? null,
      responseType: (r.response_type as string) ?? null,
      confidence: num(r.confidence),
      needsReview: r.needs_review === true,
      model: (r.model as string) ?? null,
      promptVersion: (r.prompt_version as string) ?? null,
      policyFiltered: num(r.policy_filtered),
      allCitationsInContext: typeof r.all_in_context === "boolean" ? r.all_in_context : null,
      citationCount: num(r.citation_count),
      latencyMs: num(r.latency_ms),
      question: (r.question_text as string) ?? null,
      questionErased: r.erased_at !== null && r.erased_at !== undefined,
      target: target && typeof target === "object" && target.type ? `${target.type} ${target.id ?? ""}`.trim() : null,
      threadId: (r.thread_id as string) ?? null,
      threadTurn: num(r.thread_turn),
    };
  });
  return { rows: page, nextCursor: more ? page[page.length - 1].seq : null };
}

/** Distinct values of a payload field in the tenant, by a skip scan over its expression index (fast at any size). */
async function distinctField(
  prisma: PrismaClient,
  tenantId: string,
  field: "model" | "prompt_version" | "response_type",
): Promise<string[]> {
  const e = `(payload ->> '${field}')`;
  const rows = await prisma.$queryRawUnsafe<Array<{ v: string }>>(
    `WITH RECURSIVE d(v) AS (
       (SELECT ${e} FROM "ledger" WHERE tenant_id = $1 AND ${e} IS NOT NULL ORDER BY ${e} LIMIT 1)
       UNION ALL
       SELECT (SELECT ${e} FROM "ledger" WHERE tenant_id = $1 AND ${e} > d.v ORDER BY ${e} LIMIT 1) FROM d WHERE d.v IS NOT NULL
     ) SELECT v FROM d WHERE v IS NOT NULL LIMIT 100`,
    tenantId,
  );
  return rows.map((r) => r.v);
}

export async function explorerOptions(prisma: PrismaClient, actor: Pick<Actor, "tenantId">) {
  const [users, cases, models, promptVersions, responseTypes] = await Promise.all([
    prisma.user.findMany({ where: { tenantId: actor.tenantId }, select: { id: true, name: true, email: true }, orderBy: { name: "asc" } }),
    prisma.case.findMany({ where: { tenantId: actor.tenantId }, select: { id: true, title: true }, orderBy: { id: "asc" } }),
    distinctField(prisma, actor.tenantId, "model"),
    distinctField(prisma, actor.tenantId, "prompt_version"),
    distinctField(prisma, actor.tenantId, "response_type"),
  ]);
  return { users, cases, models, promptVersions, responseTypes };
}

// ---------------------------------------------------------------------------------------------------------------

export interface CitedItem {
  id: string;
  kind: "evidence" | "graph";
  /** Evidence: shown only when the viewer's own clearance, need-to-know and the license allow it. */
  visible: boolean;
  type?: string;
  classification?: StoredClassification;
  sourceSystem?: string;
  content?: string;
  /** Issue 15: the item was revoked since — "cites evidence revoked on … (reason)"; its content is no longer shown. */
  revoked?: string;
}

export interface AuditDetail {
  seq: number;
  kind: string;
  createdAt: string;
  prevHash: string;
  entryHash: string;
  tenantId: string | null;
  caseId: string | null;
  caseTitle: string | null;
  actor: { id: string | null; name: string | null; email: string | null };
  payload: Record<string, unknown>;
  question: {
    text: string | null;
    erasedAt: string | null;
    /** sha256(text) = payload.query_sha256; null when there is no text to check. */
    matchesHash: boolean | null;
    source: "stored" | "payload" | "none";
  };
  cited: CitedItem[];
  /** The entry's thread (issue 18): every turn of it in the ledger, in order, this one included. */
  thread: { id: string; turn: number | null; turns: ThreadTurnEntry[] } | null;
  /** Case items the entry names that the viewer may not see: left out of `payload` and `cited`, only counted. */
  hiddenItems: number;
  headSize: number;
}

export async function auditEntryDetail(
  prisma: PrismaClient,
  ledger: AuditLedger,
  stores: ReviewerStores,
  actor: Actor,
  seq: number,
): Promise<AuditDetail> {
  const [entry] = await ledger.entries(seq, seq);
  // Another tenant's entry is indistinguishable from a missing one.
  if (!entry || entry.tenantId !== actor.tenantId) throw new CasegraphError("CG-ACCESS-003");
  // Shown as the viewer may see it; the chain and proofs are checked on the stored entry.
  const { payload, hiddenItems } = (await reviewerRedactor(stores, actor, [entry]))(entry);
  const threadId = typeof payload.thread_id === "string" ? payload.thread_id : null;
  const [user, kase, head, turns] = await Promise.all([
    entry.actorId
      ? prisma.user.findFirst({ where: { id: entry.actorId, tenantId: actor.tenantId }, select: { name: true, email: true } })
      : null,
    entry.caseId ? prisma.case.findFirst({ where: { id: entry.caseId, tenantId: actor.tenantId }, select: { title: true } }) : null,
    ledger.head(),
    threadId ? threadTurnEntries(prisma, actor.tenantId, threadId) : Promise.resolve([]),
  ]);

  let text: string | null = entry.questionText;
  let source: AuditDetail["question"]["source"] = text !== null ? "stored" : "none";
  if (text === null && typeof payload.query === "string") {
    text = payload.query; // entries written before the text moved out of the hashed payload
    source = "payload";
  }
  const digest = typeof payload.query_sha256 === "string" ? payload.query_sha256 : null;
  const matchesHash = text !== null && digest !== null ? sha256Hex(text) === digest : null;

  const citedIds = Array.isArray(payload.citation_ids)
    ? (payload.citation_ids as unknown[]).filter((x): x is string => typeof x === "string")
    : [];
  const evidence =
    entry.caseId && citedIds.length
      ? await prisma.evidence.findMany({
          where: { caseId: entry.caseId, tenantId: actor.tenantId, id: { in: citedIds } },
          select: {
            id: true,
            type: true,
            content: true,
            sourceSystem: true,
            classification: true,
            needToKnow: true,
            tenantId: true,
            license: { select: { allows: true } },
            revokedAt: true,
            revokedReason: true,
          },
        })
      : [];
  const byId = new Map(evidence.map((e) => [e.id, e]));
  const cited: CitedItem[] = citedIds.map((id) => {
    const e = byId.get(id);
    if (!e) return { id, kind: "graph", visible: false };
    const marking = { ...readMarking(e), licenseUses: readLicenseUses(e.license?.allows) };
    if (!mayViewEvidence(actor, marking)) return { id, kind: "evidence", visible: false };
    const shown = {
      id,
      kind: "evidence" as const,
      visible: true,
      type: e.type,
      classification: marking.classification,
      sourceSystem: e.sourceSystem,
    };
    // Evidence revoked since is flagged and its text no longer shown.
    if (e.revokedAt)
      return { ...shown, revoked: revocationFlag(id, { revokedAt: e.revokedAt.toISOString(), reason: e.revokedReason ?? "" }) };
    return { ...shown, content: e.content.length > 1200 ? e.content.slice(0, 1200) + "…" : e.content };
  });

  return {
    seq: entry.seq,
    kind: entry.kind,
    createdAt: entry.createdAt,
    prevHash: entry.prevHash,
    entryHash: entry.entryHash,
    tenantId: entry.tenantId,
    caseId: entry.caseId,
    caseTitle: kase?.title ?? null,
    actor: { id: entry.actorId, name: user?.name ?? null, email: user?.email ?? null },
    payload,
    question: { text, erasedAt: entry.questionErasedAt, matchesHash, source },
    cited,
    thread: threadId ? { id: threadId, turn: typeof payload.thread_turn === "number" ? payload.thread_turn : null, turns } : null,
    hiddenItems,
    headSize: head.size,
  };
}

export interface ThreadTurnEntry {
  seq: number;
  turn: number | null;
  createdAt: string;
  responseType: string | null;
}

/** The ledger entries of one thread in the viewer's tenant, in order (the thread index of the ledger). */
export async function threadTurnEntries(prisma: PrismaClient, tenantId: string, threadId: string): Promise<ThreadTurnEntry[]> {
  const rows = await prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(
    `SELECT l.seq, l.created_at, l.payload -> 'thread_turn' AS turn, l.payload ->> 'response_type' AS response_type
       FROM "ledger" l
      WHERE l.tenant_id = $1 AND l.payload ? 'thread_id' AND (l.payload ->> 'thread_id') = $2
      ORDER BY l.seq
      LIMIT 500`,
    tenantId,
    threadId,
  );
  return rows.map((r) => ({
    seq: Number(r.seq),
    turn: num(r.turn),
    createdAt: new Date(r.created_at as string).toISOString(),
    responseType: (r.response_type as string) ?? null,
  }));
}

/** The tenant's entries must include `seq` (inclusion proofs and exports are per tenant). */
export async function assertEntryInTenant(prisma: PrismaClient, tenantId: string, seq: number): Promise<void> {
  const rows = await prisma.$queryRawUnsafe<Array<{ n: number }>>(
    `SELECT count(*)::int AS n FROM "ledger" WHERE seq = $1 AND tenant_id = $2`,
    seq,
    tenantId,
  );
  if (!rows[0]?.n) throw new CasegraphError("CG-ACCESS-003");
}
