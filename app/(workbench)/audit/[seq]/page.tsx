// One ledger entry: question, context ids and counts, what policy filtered, the answer's summary, citations (evidence
// text only where the viewer's own clearance allows), latency, chain position, hashes, and the inclusion proof checked
// live in the browser.
import Link from "next/link";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { hasRole } from "@/lib/auth/actor";
import { requirePageActor } from "@/lib/auth/current";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { positiveIntParam } from "@/lib/domain/request-text";
import { auditEntryDetail, type AuditDetail } from "@/lib/server/audit/explorer";
import { reviewerStores } from "@/lib/server/audit/visibility";
import { hiddenItemsText } from "@/lib/domain/audit-redaction";
import { runtime } from "@/lib/server/runtime";
import { Alert, Badge, Card, ClassificationBadge } from "@/components/ui";
import { InclusionProof } from "@/components/audit/inclusion-proof";
import { RESPONSE_TONE, claimSupportSummary, kindLabel, utc } from "@/components/audit/format";
import { SafeText } from "@/components/ui/safe-text";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Audit entry · Casegraph" };

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-[12rem_1fr] gap-3 py-1.5 text-sm" data-testid={testId}>
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </div>
  );
}

const ids = (v: unknown) =>
  Array.isArray(v) && v.length ? <span className="font-mono text-xs">{v.join(", ")}</span> : <span className="text-slate-400">none</span>;
const n = (v: unknown) => (typeof v === "number" ? v : "—");

function PolicyCounts({ policy }: { policy: unknown }) {
  if (!policy || typeof policy !== "object") return <span className="text-slate-400">—</span>;
  const p = policy as Record<string, { allowed?: number; filtered?: number; by_reason?: Record<string, number> }>;
  return (
    <ul className="space-y-0.5 text-xs">
      {Object.entries(p).map(([k, c]) => (
        <li key={k}>
          {k}: {c?.allowed ?? 0} allowed, {c?.filtered ?? 0} filtered
          {c?.by_reason && c.filtered
            ? ` (${Object.entries(c.by_reason)
                .filter(([, v]) => v)
                .map(([r, v]) => `${r} ${v}`)
                .join(", ")})`
            : ""}
        </li>
      ))}
    </ul>
  );
}

/** The entry's thread (issue 18): its turns in the ledger, this one marked, and how this turn drew on earlier ones. */
function ThreadCard({ d }: { d: AuditDetail }) {
  const t = d.thread!;
  const p = d.payload;
  return (
    <Card title="Thread">
      <dl>
        <Row label="Thread" testId="detail-thread">
          <Link href={`/audit?thread=${encodeURIComponent(t.id)}`} className="font-mono text-xs text-blue-800 hover:underline">
            {t.id}
          </Link>{" "}
          · turn {t.turn ?? "—"} of {t.turns.length}
        </Row>
        <Row label="From earlier turns">
          {n(p.thread_references)} reference(s) resolved
          {typeof p.query_resolved_sha256 === "string" ? (
            <>
              {" "}
              (resolved question SHA-256 <span className="font-mono text-xs">{p.query_resolved_sha256}</span>)
            </>
          ) : null}
          ; seeds {ids(p.thread_seed_ids)}; {n(p.thread_no_longer_visible)} earlier item(s) no longer visible to the asker;{" "}
          {n(p.thread_turns_left_out)} earlier turn(s) left out by the conversation bound
        </Row>
      </dl>
      <ol className="mt-2 space-y-0.5 text-sm" data-testid="detail-thread-turns">
        {t.turns.map((x) => (
          <li key={x.seq} data-current={x.seq === d.seq ? "true" : "false"}>
            {x.seq === d.seq ? (
              <span className="font-semibold">
                Turn {x.turn ?? "?"} · #{x.seq} (this entry)
              </span>
            ) : (
              <Link href={`/audit/${x.seq}`} className="text-blue-800 hover:underline">
                Turn {x.turn ?? "?"} · #{x.seq}
              </Link>
            )}{" "}
            <span className="text-xs text-slate-500">
              {utc(x.createdAt)} · {x.responseType ?? "—"}
            </span>
          </li>
        ))}
      </ol>
    </Card>
  );
}

function AnswerSection({ d, artifact }: { d: AuditDetail; artifact: boolean }) {
  const p = d.payload;
  return (
    <>
      <Card title="Question">
        <dl>
          <Row label="Question" testId="detail-question">
            {d.question.text !== null ? (
              <span>
                “<SafeText text={d.question.text} />”
              </span>
            ) : d.question.erasedAt ? (
              <span className="italic text-slate-500">erased by retention on {utc(d.question.erasedAt)}</span>
            ) : (
              <span className="italic text-slate-500">not stored (AUDIT_QUERY_MODE=hash)</span>
            )}
          </Row>
          <Row label="Question SHA-256">
            <span className="font-mono text-xs">{String(p.query_sha256 ?? "—")}</span>{" "}
            {d.question.matchesHash === true ? (
              <Badge tone="green">text matches the hashed digest</Badge>
            ) : d.question.matchesHash === false ? (
              <Badge tone="red">stored text does NOT match the hashed digest</Badge>
            ) : null}
          </Row>
          <Row label="Request id">
            <span className="font-mono text-xs">{String(p.request_id ?? "—")}</span>
            {artifact && typeof p.request_id === "string" ? (
              // The per-answer compliance artifact (issue 15): `casegraph audit verify-artifact` checks it offline.
              <a
                href={`/api/audit/requests/${encodeURIComponent(p.request_id)}/artifact`}
                download
                className="ml-3 text-xs font-medium text-blue-800 hover:underline"
                data-testid="artifact-download"
              >
                Download compliance artifact
              </a>
            ) : null}
          </Row>
          <Row label="Prompt version · model">
            {String(p.prompt_version ?? "—")} · {String(p.model ?? "—")}
          </Row>
        </dl>
      </Card>
      {d.thread ? <ThreadCard d={d} /> : null}
      <Card title="What the model saw">
        <dl>
          <Row label="Context counts">
            {n(p.context_node_count)} nodes, {n(p.context_edge_count)} edges, {n(p.context_evidence_count)} evidence snippets
            {p.context_narrowed ? " (narrowed to fit the budget)" : ""}
          </Row>
          <Row label="Context node ids">{ids(p.context_node_ids)}</Row>
          <Row label="Context evidence ids">{ids(p.context_evidence_ids)}</Row>
          <Row label="Filtered by policy" testId="detail-policy">
            {n(p.policy_filtered_count)} filtered, {n(p.policy_allowed_count)} allowed
            <PolicyCounts policy={p.policy} />
          </Row>
        </dl>
      </Card>
      <Card title="Answer">
        <dl>
          <Row label="Response type">
            {p.response_type ? <Badge tone={RESPONSE_TONE[String(p.response_type)] ?? "neutral"}>{String(p.response_type)}</Badge> : "—"}
            {p.error_code ? <span className="ml-2 font-mono text-xs">{String(p.error_code)}</span> : null}
          </Row>
          <Row label="Confidence" testId="detail-confidence">
            {typeof p.confidence === "number" ? p.confidence.toFixed(2) : "—"}{" "}
            {p.needs_review ? <Badge tone="amber">needs review</Badge> : null}
          </Row>
          <Row label="Summary">
            {n(p.answer_num_citations)} citations, {n(p.answer_num_unknowns)} unknowns; answer SHA-256{" "}
            <span className="font-mono text-xs">{String(p.answer_sha256 ?? "—")}</span>
          </Row>
          <Row label="All citations in context">
            {p.all_citations_in_context === true ? (
              <Badge tone="green">yes</Badge>
            ) : p.all_citations_in_context === false ? (
              <Badge tone="red">no — {ids(p.invalid_citation_ids)}</Badge>
            ) : (
              "—"
            )}
          </Row>
          <Row label="Dropped">
            {n(p.dropped_claim_count)} claims, {n(p.dropped_action_count)} action statements; {n(p.model_retries)} retries
          </Row>
          <Row label="Claim support" testId="detail-claim-support">
            {claimSupportSummary(p)}
          </Row>
          <Row label="Latency">
            {n(p.latency_ms)} ms total, {n(p.model_latency_ms)} ms model
          </Row>
        </dl>
      </Card>
      <Card
        title="Citations"
        description="Evidence text is shown only where your own clearance, need-to-know and the item's license allow it."
      >
        {d.cited.length === 0 ? <p className="text-sm text-slate-500">No citations.</p> : null}
        <ul className="space-y-3" data-testid="detail-citations">
          {d.cited.map((c) => (
            <li
              key={c.id}
              className="rounded-md border border-slate-200 p-3 text-sm"
              data-testid={`cited-${c.id}`}
              data-visible={c.visible ? "true" : "false"}
            >
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-mono text-xs font-medium">{c.id}</span>
                {c.kind === "graph" ? <Badge>graph item</Badge> : null}
                {c.visible && c.classification ? <ClassificationBadge classification={c.classification} /> : null}
                {c.visible ? (
                  <span className="text-xs text-slate-500">
                    {c.type} · {c.sourceSystem}
                  </span>
                ) : null}
              </div>
              {c.revoked ? (
                <p className="mt-1 text-xs font-medium text-red-800" data-testid="revoked-flag">
                  ⚠ <SafeText text={c.revoked} />
                </p>
              ) : null}
              {c.visible && !c.revoked ? (
                <p className="mt-1 whitespace-pre-wrap text-slate-800">
                  <SafeText text={c.content ?? ""} />
                </p>
              ) : null}
              {!c.visible && c.kind === "evidence" ? (
                <p className="mt-1 text-xs italic text-slate-500">Not shown: your clearance or need-to-know does not cover this item.</p>
              ) : null}
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}

export default async function AuditEntryPage({ params }: { params: Promise<{ seq: string }> }) {
  const actor = await requirePageActor({ roles: ["supervisor", "admin"], from: "/audit" });
  const seq = positiveIntParam((await params).seq);
  if (seq === null) notFound(); // not a sequence number the ledger could hold (also 99999999999999999999)
  const { db, ledger } = await runtime();
  let d: AuditDetail;
  try {
    d = await auditEntryDetail(db.prisma, ledger, reviewerStores(db), actor, seq);
  } catch (err) {
    if (err instanceof CasegraphError && err.code === "CG-ACCESS-003") notFound();
    throw err;
  }
  const isAnswer = d.kind === "graphrag.answer";
  return (
    <div className="space-y-5">
      <Link href="/audit" className="text-sm text-blue-800 hover:underline">
        ← Audit explorer
      </Link>
      <header>
        <h1 className="text-2xl font-semibold tracking-tight" data-testid="detail-title">
          Entry #{d.seq} · {kindLabel(d.kind)}
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          {utc(d.createdAt)} · {d.actor.name ?? d.actor.id ?? "operator"}
          {d.actor.email ? ` (${d.actor.email})` : ""}
          {d.caseId ? (
            <>
              {" "}
              · case <span className="font-mono">{d.caseId}</span>
              {d.caseTitle ? ` — ${d.caseTitle}` : ""}
            </>
          ) : null}
        </p>
      </header>
      {d.payload.needs_review ? <Alert tone="warning" title="This answer was flagged for review (confidence below 0.5)." /> : null}
      {d.hiddenItems > 0 ? (
        <p className="rounded border border-slate-300 bg-slate-50 px-3 py-2 text-sm text-slate-700" data-testid="detail-hidden-items">
          {hiddenItemsText(d.hiddenItems)} are not listed here. The entry&apos;s hash and proof are checked on the full stored entry.
        </p>
      ) : null}

      <Card title="Chain position and inclusion proof">
        <dl className="mb-4">
          <Row label="Position">
            entry {d.seq} of {d.headSize}
          </Row>
          <Row label="Entry hash">
            <span className="font-mono text-xs" data-testid="detail-entry-hash">
              {d.entryHash}
            </span>
          </Row>
          <Row label="Previous hash">
            <span className="font-mono text-xs">{d.prevHash}</span>
          </Row>
        </dl>
        <InclusionProof seq={d.seq} />
      </Card>

      {isAnswer ? (
        <AnswerSection d={d} artifact={hasRole(actor, "supervisor")} />
      ) : (
        <Card title="Recorded change">
          <pre className="max-h-[32rem] overflow-auto rounded bg-slate-50 p-3 text-xs" data-testid="detail-payload">
            {JSON.stringify(d.payload, null, 2)}
          </pre>
        </Card>
      )}
    </div>
  );
}
