// Suggested next steps (issue 16, seed 003's pattern end to end). Reads top to bottom:
//   input → case access → the query (case labels, asker, tenant, question) → the catalogue filtered and ranked IN THE
//   DATABASE → the model gets the four-field view and the question, and picks → its output read strictly → every id it
//   kept checked against the same query, re-run → one ledger entry → the suggestions.
// Nothing is executed, ever: a suggestion can only be proposed for the case, and a supervisor decides
// (lib/server/playbooks/proposals.ts). What the caller sees never says why a playbook is absent: "not found" and "not
// allowed" are the same silence.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { asCasegraphError, CasegraphError, type FailureIssue } from "../domain/failure-codes";
import { sha256Hex } from "../domain/ledger-chain";
import { readRoles } from "../domain/markings";
import { PolicyGate } from "../graphrag/policy-filter";
import { auditableText, parseInput } from "../graphrag/input";
import type { Asker } from "../graphrag/types";
import { ANONYMOUS_ASKER } from "../graphrag/answer";
import type { CaseAccess, CaseRef, EvidenceStore, Ledger } from "../ports";
import { descriptionTerms, heldAuthorities } from "./catalogue";
import { DEFAULT_MAX_RESULTS, DEFAULT_MIN_CONFIDENCE, HARD_MAX_RESULTS, type Selection, type SelectionQuery } from "./filter";
import { readPicks, type PickReport } from "./picks";
import type { NextStepFacts, PlaybookCatalogue, PlaybookPicker } from "./ports";
import { modelView, roundConfidence } from "./view";

export const SUGGEST_KIND = "playbook.suggest";

export interface Suggestion {
  playbookId: string;
  version: string;
  description: string;
  confidence: number;
  /** The model's one-line reason (or the offline picker's). */
  reason: string;
  /** Evidence the reason relies on: ids the last answer cited that the asker may see. */
  citations: string[];
}

export interface NextStepsBody {
  suggestions: Suggestion[];
  catalogueVersion: string;
  requestId: string;
  timestamp: string;
  auditId: string;
}

export interface NextStepsFailure {
  error: { code: string; message: string; issues?: FailureIssue[] };
  requestId: string;
  timestamp: string;
  auditId: string | null;
}

export type SuggestOutcome = { ok: true; status: 200; body: NextStepsBody } | { ok: false; status: number; body: NextStepsFailure };

export interface SuggestDeps {
  access: CaseAccess;
  catalogue: PlaybookCatalogue;
  evidence: EvidenceStore;
  picker: PlaybookPicker;
  ledger: Ledger;
  /** AUDIT_QUERY_MODE, as for answers: the question's text kept next to the entry (redactable), or only its SHA-256. */
  auditQueryMode?: "text" | "hash";
  clock?: () => Date;
  newId?: () => string;
}

export interface SuggestOptions {
  /** When the suggestions go with an answer (a request for next steps asked as a question): that answer's request. */
  answerRequestId?: string;
  signal?: AbortSignal;
}

const MAX_FOLLOW_UP_CHARS = 20_000;

const extrasSchema = z.object({
  followUp: z
    .object({
      answerText: z.string().max(MAX_FOLLOW_UP_CHARS).optional(),
      evidenceIds: z.array(z.string().min(1).max(200)).max(50).optional(),
    })
    .strict()
    .optional(),
  minConfidence: z.number().min(0).max(1).optional(),
  maxResults: z.number().int().min(1).max(HARD_MAX_RESULTS).optional(),
});

export interface NextStepsInput {
  caseId: string;
  question: string;
  followUp: { answerText: string; evidenceIds: string[] };
  minConfidence: number;
  maxResults: number;
}

/** caseId and question exactly as the answer pipeline checks them (same codes), then the optional fields. */
export function parseNextStepsInput(raw: unknown): NextStepsInput {
  const r = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const { caseId, question } = parseInput({ caseId: r.caseId, question: r.question });
  const extras = extrasSchema.safeParse(raw);
  if (!extras.success)
    throw new CasegraphError(
      "CG-INPUT-001",
      undefined,
      extras.error.issues.map((i) => ({ path: "$" + i.path.map((p) => `.${String(p)}`).join(""), message: i.message })),
    );
  const e = extras.data;
  return {
    caseId,
    question,
    followUp: { answerText: e.followUp?.answerText ?? "", evidenceIds: [...new Set(e.followUp?.evidenceIds ?? [])] },
    minConfidence: e.minConfidence ?? DEFAULT_MIN_CONFIDENCE,
    maxResults: e.maxResults ?? DEFAULT_MAX_RESULTS,
  };
}

/** The query of seed 003: the case's labels, the asker's clearance, tags, roles and authority, the tenant's tolerance. */
export function selectionQuery(asker: Asker, caseRef: CaseRef, facts: NextStepFacts, input: NextStepsInput): SelectionQuery {
  return {
    tenantId: caseRef.tenantId,
    caseType: facts.caseType,
    jurisdiction: facts.jurisdiction,
    clearance: asker.clearance,
    needToKnow: asker.needToKnow,
    authorities: heldAuthorities(readRoles(asker.roles ?? []), facts.legalAuthority),
    riskTolerance: facts.riskTolerance,
    terms: descriptionTerms(`${input.question}\n${input.followUp.answerText}`),
    minConfidence: input.minConfidence,
    maxResults: input.maxResults,
  };
}

interface Trace {
  requestId: string;
  auditId: string;
  timestamp: string;
  asker: Asker;
  caseId: string | null;
  question: string | null;
  answerRequestId?: string;
  model?: string;
  selection?: Selection;
  report?: PickReport & { unknownIds: number; filteredIds: number };
  evidenceIds?: string[];
  suggestions?: Suggestion[];
}

export async function suggestNextSteps(
  deps: SuggestDeps,
  asker: Asker,
  raw: unknown,
  options: SuggestOptions = {},
): Promise<SuggestOutcome> {
  const started = performance.now();
  const trace: Trace = {
    ...startTrace(deps, asker, raw),
    ...(options.answerRequestId ? { answerRequestId: options.answerRequestId } : {}),
  };
  try {
    const input = parseNextStepsInput(raw);
    trace.caseId = input.caseId;
    trace.question = input.question;
    const caseRef = await deps.access.assertCaseAccess(asker, input.caseId);
    const scope = { tenantId: caseRef.tenantId, caseId: caseRef.id };
    const facts = await deps.catalogue.facts(scope, asker.userId);
    const query = selectionQuery(asker, caseRef, facts, input);

    // The evidence a reason may cite: what the last answer cited that this asker may still see in this case.
    const gate = new PolicyGate(asker);
    const evidenceIds = input.followUp.evidenceIds.length
      ? gate
          .evidence(await deps.evidence.byIds(scope, input.followUp.evidenceIds))
          .map((e) => e.id)
          .sort()
      : [];
    trace.evidenceIds = evidenceIds;

    const selection = (trace.selection = await deps.catalogue.select(query));
    const offered = modelView(selection.candidates);
    let suggestions: Suggestion[] = [];
    if (offered.length) {
      trace.model = `${deps.picker.provider}:${deps.picker.modelId}`;
      let text: string;
      try {
        text = await deps.picker.pick({ question: input.question, evidenceIds, playbooks: offered, signal: options.signal });
      } catch (err) {
        throw err instanceof CasegraphError ? err : new CasegraphError("CG-MODEL-001", undefined, [], { cause: err });
      }
      const report = readPicks(text, offered, evidenceIds);
      // Whatever survived the reading is checked again against the same query, re-run: only what is still there stays.
      const rerun = new Map((await deps.catalogue.select(query)).candidates.map((c) => [c.id, c]));
      const kept = report.picks.filter((p) => rerun.get(p.playbookId)?.version === p.version);
      report.dropped.not_in_filter += report.picks.length - kept.length;
      // For the ledger only: were the ids it was not offered unknown, or in the catalogue and filtered out?
      const existing = report.notOfferedIds.length ? await deps.catalogue.existing(caseRef.tenantId, report.notOfferedIds) : new Set();
      trace.report = {
        ...report,
        unknownIds: report.notOfferedIds.filter((id) => !existing.has(id)).length,
        filteredIds: report.notOfferedIds.filter((id) => existing.has(id)).length,
      };
      suggestions = kept.map((p) => {
        const c = rerun.get(p.playbookId)!;
        return {
          playbookId: c.id,
          version: c.version,
          description: c.description,
          confidence: roundConfidence(c.confidence),
          reason: p.reason,
          citations: p.citations,
        };
      });
    }
    trace.suggestions = suggestions;
    await record(deps, trace, started, null);
    return {
      ok: true,
      status: 200,
      body: {
        suggestions,
        catalogueVersion: selection.catalogueVersion,
        requestId: trace.requestId,
        timestamp: trace.timestamp,
        auditId: trace.auditId,
      },
    };
  } catch (err) {
    const error = asCasegraphError(err);
    let auditId: string | null = trace.auditId;
    if (error.code === "CG-AUDIT-001") auditId = null;
    else {
      if (error.code === "CG-SYS-002") console.error("casegraph: next steps failed", error.cause ?? error);
      try {
        await record(deps, trace, started, error);
      } catch {
        auditId = null;
      }
    }
    const e = auditId === null ? new CasegraphError("CG-AUDIT-001") : error;
    return {
      ok: false,
      status: e.status,
      body: { error: e.toJSON().error, requestId: trace.requestId, timestamp: trace.timestamp, auditId },
    };
  }
}

/**
 * A next-steps request refused before this step could run it (credential, Origin, role, a body the entry point could
 * not shape): its one ledger entry, like any other. Throws CG-AUDIT-001 when even that cannot be written.
 */
export async function refuseNextSteps(
  deps: Pick<SuggestDeps, "ledger" | "auditQueryMode" | "clock" | "newId">,
  asker: Asker | null,
  raw: unknown,
  error: CasegraphError,
): Promise<void> {
  await record(deps, startTrace(deps, asker ?? ANONYMOUS_ASKER, raw), performance.now(), error);
}

/** A request as it arrives: its ids and time, who asked, and what was sent (bounded, until the input step accepts it). */
function startTrace(deps: Pick<SuggestDeps, "clock" | "newId">, asker: Asker, raw: unknown): Trace {
  const newId = deps.newId ?? randomUUID;
  const r = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  return {
    requestId: newId(),
    auditId: newId(),
    timestamp: (deps.clock ?? (() => new Date()))().toISOString(),
    asker,
    caseId: auditableText(r.caseId, 200),
    question: auditableText(r.question, 2_000),
  };
}

/** One ledger entry per request: the catalogue version, the filter's counts by label, what the model did, what was suggested. */
async function record(
  deps: Pick<SuggestDeps, "ledger" | "auditQueryMode">,
  t: Trace,
  started: number,
  error: CasegraphError | null,
): Promise<void> {
  const s = t.selection;
  const textMode = (deps.auditQueryMode ?? "text") === "text" && t.question !== null;
  const payload: Record<string, unknown> = {
    id: t.auditId,
    ts: t.timestamp,
    request_id: t.requestId,
    ...(t.answerRequestId ? { answer_request_id: t.answerRequestId } : {}),
    tenant_id: t.asker.tenantId,
    actor_id: t.asker.userId,
    actor_via: t.asker.via ?? null,
    actor_token: t.asker.token ? { id: t.asker.token.id, issuer: t.asker.token.issuer } : null,
    case_id: t.caseId,
    query_mode: textMode ? "text" : "hash",
    query_sha256: t.question === null ? null : sha256Hex(t.question),
    ...(error ? { error_code: error.code } : {}),
    catalogue_version: s?.catalogueVersion ?? null,
    filter: s
      ? {
          catalogue: s.counts.catalogue,
          allowed: s.counts.allowed,
          filtered: s.counts.filtered,
          by_reason: s.counts.byReason,
          below_min_confidence: s.counts.belowMinConfidence,
          beyond_max_results: s.counts.beyondMaxResults,
          offered: s.counts.offered,
        }
      : null,
    offered: s?.candidates.map((c) => ({ playbook_id: c.id, version: c.version, confidence: roundConfidence(c.confidence) })) ?? [],
    model: t.model ?? null,
    model_output: t.report
      ? {
          picks_kept: t.report.picks.length - t.report.dropped.not_in_filter,
          dropped: t.report.dropped,
          dropped_total: Object.values(t.report.dropped).reduce((a, b) => a + b, 0),
          not_offered_unknown: t.report.unknownIds,
          not_offered_in_catalogue: t.report.filteredIds,
          invalid_citations: t.report.invalidCitations,
        }
      : null,
    citable_evidence_ids: t.evidenceIds ?? [],
    suggestions: (t.suggestions ?? []).map((x) => ({
      playbook_id: x.playbookId,
      version: x.version,
      confidence: x.confidence,
      citations: x.citations,
      reason_sha256: sha256Hex(x.reason),
    })),
    latency_ms: Math.round(performance.now() - started),
  };
  try {
    await deps.ledger.append({
      kind: SUGGEST_KIND,
      payload,
      tenantId: t.asker.tenantId || null,
      actorId: t.asker.userId || null,
      caseId: t.caseId,
      ...(textMode ? { redactable: { questionText: t.question } } : {}),
    });
  } catch (err) {
    throw new CasegraphError("CG-AUDIT-001", undefined, [], { cause: err });
  }
}
