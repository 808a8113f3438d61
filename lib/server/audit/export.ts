// The compliance artifact (seed 004 §10, issue 7): the ledger entries of a range, the signed checkpoint at the end of
// the range, an inclusion proof per entry against it, the prompt versions used, kill-switch records, and the evidence
// ids cited — one deterministic JSON document (canonical, keys sorted). The same range on the same ledger exports to the
// same bytes: the checkpoint is the one stored for that tree size (signed once, Ed25519 signatures are deterministic),
// and nothing in the artifact depends on when it was exported — except the flags on answers citing evidence revoked
// since (issue 15), which appear once a revocation happens. CSV is the same rows for spreadsheets.
// Every export is itself recorded in the ledger (kind "audit.export", with the artifact's SHA-256).
import "server-only";
import { canonicalJsonPretty } from "../../domain/canonical-json";
import { CasegraphError } from "../../domain/failure-codes";
import { PROMPT_VERSION, SYSTEM_PROMPT } from "../../graphrag/prompt";
import { sha256Hex } from "../../domain/ledger-chain";
import type { AuditLedger } from "../../ports";
import { hiddenItemsText } from "../../domain/audit-redaction";
import type { Viewer } from "../../domain/policy";
import type { PrismaClient } from "../../generated/prisma/client";
import { revocationFlag } from "../../grounding/flags";
import { reviewerRedactor, type ReviewerStores } from "./visibility";

export const ARTIFACT_FORMAT = "casegraph.compliance-artifact/v1";
export const EXPORT_KIND = "audit.export";
/** Widest range one artifact covers (entries are read and proved in memory). */
export const MAX_EXPORT_RANGE = 100_000;

/** Known prompt texts by version, so an artifact can pin the exact system prompt a version stood for. */
const PROMPTS: Record<string, string> = { [PROMPT_VERSION]: SYSTEM_PROMPT };

export interface ExportRequest {
  fromSeq: number;
  toSeq: number;
  /** Only this tenant's entries (a supervisor's export); null: every tenant (an operator's export). */
  tenantId: string | null;
  includeQuestionText: boolean;
  /**
   * A reviewer's export: ids of case items outside the reviewer's own permissions are removed from the payloads and
   * counted (issue 11 §6). Omitted: an operator's export, complete.
   */
  reviewer?: { viewer: Viewer; stores: ReviewerStores };
  /** Evidence revoked since it was cited (issue 15): flagged in the export. Omitted: no flags. */
  revocations?: RevocationLookup;
}

/** The revoked items among those cited, per case. */
export type RevocationLookup = (
  cited: ReadonlyArray<{ caseId: string; ids: readonly string[] }>,
) => Promise<Array<{ caseId: string; id: string; revokedAt: string; reason: string }>>;

/** Revocations as the evidence table records them. */
export function evidenceRevocations(prisma: PrismaClient): RevocationLookup {
  return async (cited) => {
    const wanted = cited.filter((c) => c.ids.length);
    if (!wanted.length) return [];
    const rows = await prisma.evidence.findMany({
      where: { OR: wanted.map((c) => ({ caseId: c.caseId, id: { in: [...c.ids] } })), revokedAt: { not: null } },
      select: { caseId: true, id: true, revokedAt: true, revokedReason: true },
    });
    return rows.map((r) => ({ caseId: r.caseId, id: r.id, revokedAt: r.revokedAt!.toISOString(), reason: r.revokedReason ?? "" }));
  };
}

export interface ExportActor {
  userId: string | null;
  email: string | null;
  tenantId: string | null;
  via: string;
}

const str = (v: unknown) => (typeof v === "string" ? v : null);

export async function buildArtifact(ledger: AuditLedger, req: ExportRequest) {
  const head = await ledger.head();
  const { fromSeq, toSeq } = req;
  if (!Number.isSafeInteger(fromSeq) || !Number.isSafeInteger(toSeq) || fromSeq < 1 || toSeq < fromSeq || toSeq > head.size) {
    throw new CasegraphError("CG-INPUT-005", `The export range must satisfy 1 ≤ from ≤ to ≤ ${head.size}.`);
  }
  if (toSeq - fromSeq + 1 > MAX_EXPORT_RANGE) {
    throw new CasegraphError("CG-INPUT-005", `One export covers at most ${MAX_EXPORT_RANGE} entries; split the range.`);
  }
  const all = await ledger.entries(fromSeq, toSeq);
  const entries = req.tenantId === null ? all : all.filter((e) => e.tenantId === req.tenantId);
  const checkpoint = await ledger.checkpoint(toSeq);
  const proofs = await ledger.inclusionProofs(
    entries.map((e) => e.seq),
    toSeq,
  );
  const redact = req.reviewer ? await reviewerRedactor(req.reviewer.stores, req.reviewer.viewer, entries) : null;
  const shown = entries.map((e) => (redact ? { ...e, ...redact(e) } : { ...e, hiddenItems: 0 }));
  const hiddenItems = shown.reduce((n, e) => n + e.hiddenItems, 0);

  const versions = new Map<string, number>();
  const cited = new Set<string>();
  const byKind = new Map<string, number>();
  const byResponseType = new Map<string, number>();
  for (const e of shown) {
    const p = (e.payload ?? {}) as Record<string, unknown>;
    byKind.set(e.kind, (byKind.get(e.kind) ?? 0) + 1);
    const v = str(p.prompt_version);
    if (v) versions.set(v, (versions.get(v) ?? 0) + 1);
    const rt = str(p.response_type);
    if (rt) byResponseType.set(rt, (byResponseType.get(rt) ?? 0) + 1);
    if (Array.isArray(p.citation_ids)) for (const id of p.citation_ids) if (typeof id === "string") cited.add(id);
  }
  // Answers citing evidence revoked since carry its flag (from the ids the export shows, so a reviewer's export names
  // no item outside the reviewer's permissions). This is the one part of an export that can change for the same range.
  const citedByCase = new Map<string, Set<string>>();
  for (const e of shown) {
    const p = (e.payload ?? {}) as Record<string, unknown>;
    if (!e.caseId || !Array.isArray(p.citation_ids)) continue;
    const set = citedByCase.get(e.caseId) ?? new Set<string>();
    for (const id of p.citation_ids) if (typeof id === "string") set.add(id);
    citedByCase.set(e.caseId, set);
  }
  const revoked = req.revocations ? await req.revocations([...citedByCase].map(([caseId, ids]) => ({ caseId, ids: [...ids] }))) : [];
  const flagOf = new Map(revoked.map((r) => [`${r.caseId}\u0000${r.id}`, revocationFlag(r.id, r)]));
  const flagsFor = (e: (typeof shown)[number]) => {
    const p = (e.payload ?? {}) as Record<string, unknown>;
    const ids = Array.isArray(p.citation_ids) ? p.citation_ids.filter((id): id is string => typeof id === "string") : [];
    return [...new Set(ids)]
      .sort()
      .map((id) => flagOf.get(`${e.caseId}\u0000${id}`))
      .filter((f): f is string => !!f);
  };
  const sortedCounts = (m: Map<string, number>) => Object.fromEntries([...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

  return {
    format: ARTIFACT_FORMAT,
    range: { fromSeq, toSeq, tenantId: req.tenantId, questionTextIncluded: req.includeQuestionText },
    checkpoint: {
      treeSize: checkpoint.treeSize,
      rootHash: checkpoint.rootHash,
      time: checkpoint.time,
      keyId: checkpoint.keyId,
      signature: checkpoint.signature,
    },
    publicKey: checkpoint.publicKeyPem,
    verification:
      "entryHash = sha256_hex(prevHash || canonical_json({seq, kind, createdAt, payload})); leaf = sha256Hex(0x00 || entryHash bytes); " +
      "inclusionProof is the RFC 6962 audit path of leaf seq-1 in the tree of checkpoint.treeSize leaves, whose root the checkpoint signs " +
      '(Ed25519 over "casegraph.ledger/v1\\n<treeSize>\\n<rootHash>\\n<time>\\n<keyId>\\n"). questionText is outside the hash; its sha256 is payload.query_sha256.',
    ...(redact
      ? {
          redaction:
            `Exported for a reviewer: ${hiddenItemsText(hiddenItems)} were removed from the id lists of the entries marked hiddenItems. ` +
            "Those entries' entryHash cannot be recomputed from this file (the server verified them on the full stored payload); " +
            "their inclusion proofs, from entryHash, and the checkpoint still verify. An operator's export (`casegraph audit export`) is complete.",
          hiddenItems,
        }
      : {}),
    summary: { entryCount: entries.length, byKind: sortedCounts(byKind), byResponseType: sortedCounts(byResponseType) },
    promptVersions: [...versions.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([version, entryCount]) => ({
        version,
        entryCount,
        systemPromptSha256: PROMPTS[version] ? sha256Hex(PROMPTS[version]) : null,
      })),
    killSwitches: {
      // Kill-switch flips (seed 004 §8, issue 15) the range holds; each flip is its own ledger entry.
      recorded: shown
        .filter((e) => /(^|\.)kill_switch/.test(e.kind))
        .map((e) => ({ seq: e.seq, kind: e.kind, createdAt: e.createdAt, payload: e.payload })),
    },
    evidenceIdsCited: [...cited].sort(),
    entries: shown.map((e) => ({
      seq: e.seq,
      prevHash: e.prevHash,
      entryHash: e.entryHash,
      kind: e.kind,
      createdAt: e.createdAt,
      payload: e.payload,
      ...(e.hiddenItems ? { hiddenItems: e.hiddenItems } : {}),
      ...(flagsFor(e).length ? { revokedSince: flagsFor(e) } : {}),
      tenantId: e.tenantId,
      actorId: e.actorId,
      caseId: e.caseId,
      ...(req.includeQuestionText ? { questionText: e.questionText, questionErased: e.questionErasedAt !== null } : {}),
      inclusionProof: proofs.get(e.seq)!,
    })),
  };
}

export type ComplianceArtifact = Awaited<ReturnType<typeof buildArtifact>>;

export const artifactJson = (a: ComplianceArtifact) => canonicalJsonPretty(a);

/** A spreadsheet cell: quoted when needed, and never read as a formula (values starting = + - @ get a leading '). */
function cell(v: unknown): string {
  let s = v === null || v === undefined ? "" : Array.isArray(v) ? v.join(" ") : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = "'" + s;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const CSV_COLUMNS = [
  "seq",
  "created_at",
  "kind",
  "tenant_id",
  "actor_id",
  "case_id",
  "response_type",
  "needs_review",
  "confidence",
  "model",
  "prompt_version",
  "policy_filtered_count",
  "all_citations_in_context",
  "citation_ids",
  "revoked_since",
  "latency_ms",
  "entry_hash",
  "question_text",
] as const;

export function artifactCsv(a: ComplianceArtifact): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const e of a.entries) {
    const p = (e.payload ?? {}) as Record<string, unknown>;
    lines.push(
      [
        e.seq,
        e.createdAt,
        e.kind,
        e.tenantId,
        e.actorId,
        e.caseId,
        p.response_type,
        p.needs_review,
        p.confidence,
        p.model,
        p.prompt_version,
        p.policy_filtered_count,
        p.all_citations_in_context,
        p.citation_ids,
        // The JSON export's revokedSince flags, one cell ("cites evidence revoked on … (reason): id; …").
        "revokedSince" in e ? (e.revokedSince?.join("; ") ?? "") : "",
        p.latency_ms,
        e.entryHash,
        "questionText" in e ? e.questionText : "",
      ]
        .map(cell)
        .join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}

/** Builds the export, records it in the ledger, and returns the text. */
export async function exportAndRecord(
  ledger: AuditLedger,
  req: ExportRequest,
  actor: ExportActor,
  format: "json" | "csv",
): Promise<{ text: string; sha256: string; entryCount: number; recordedSeq: number }> {
  const artifact = await buildArtifact(ledger, req);
  const text = format === "json" ? artifactJson(artifact) : artifactCsv(artifact);
  const digest = sha256Hex(text);
  const recorded = await ledger.append({
    kind: EXPORT_KIND,
    tenantId: actor.tenantId,
    actorId: actor.userId,
    caseId: null,
    payload: {
      tenant_id: actor.tenantId,
      actor_id: actor.userId,
      actor_email: actor.email,
      actor_via: actor.via,
      format,
      artifact_format: ARTIFACT_FORMAT,
      from_seq: req.fromSeq,
      to_seq: req.toSeq,
      scope_tenant_id: req.tenantId,
      question_text_included: req.includeQuestionText,
      entry_count: artifact.entries.length,
      checkpoint_tree_size: artifact.checkpoint.treeSize,
      artifact_sha256: digest,
    },
  });
  return { text, sha256: digest, entryCount: artifact.entries.length, recordedSeq: recorded.seq };
}
