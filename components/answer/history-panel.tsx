"use client";
// The user's own questions on this case, from the audit ledger. The ledger keeps what was asked and what came back
// (type, confidence, citations, counts) but not the answer text, so an entry reopens as that stored summary; "Ask
// again" runs the question anew under the user's current permissions.
import { Badge, Button, type BadgeTone } from "@/components/ui";
import type { HistoryEntry } from "@/lib/domain/workbench-views";
import { formatDateTime, plural } from "./format";
import { SafeText } from "@/components/ui/safe-text";
import { LoadProblem } from "./load-problem";

const TYPE: Record<string, { label: string; tone: BadgeTone }> = {
  answer: { label: "answer", tone: "green" },
  no_evidence: { label: "no evidence", tone: "blue" },
  refused: { label: "refused", tone: "amber" },
  unable: { label: "unable", tone: "amber" },
  error: { label: "error", tone: "red" },
  escalated: { label: "held for review", tone: "amber" },
};

export function HistoryPanel({
  entries,
  loading,
  error,
  onRetry,
  onAskAgain,
  onOpenEvidence,
  busy,
}: {
  entries: HistoryEntry[] | undefined;
  loading: boolean;
  error: { code: string; message: string } | null;
  onRetry: () => void;
  onAskAgain: (question: string) => void;
  onOpenEvidence: (id: string) => void;
  busy: boolean;
}) {
  if (loading && !entries) return <p className="p-1 text-sm text-slate-600">Loading your questions…</p>;
  if (error) return <LoadProblem what="Your question history" code={error.code} onRetry={onRetry} />;
  if (!entries?.length) {
    return (
      <p className="p-1 text-sm text-slate-600" data-testid="history-empty">
        You have not asked anything about this case yet.
      </p>
    );
  }
  return (
    <ul className="space-y-1.5" data-testid="history-list">
      {entries.map((e) => {
        const t = TYPE[e.responseType] ?? { label: e.responseType, tone: "neutral" as BadgeTone };
        return (
          <li key={e.seq} className="rounded-md border border-slate-200 bg-white" data-testid="history-entry">
            <details className="group">
              <summary className="flex cursor-pointer list-none items-start gap-2 px-2.5 py-2 text-sm marker:hidden">
                <span aria-hidden className="mt-1 text-[10px] text-slate-500 transition-transform group-open:rotate-90">
                  ▶
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium text-slate-900">
                    {e.question !== null ? (
                      <SafeText text={e.question} />
                    ) : (
                      <span className="italic text-slate-600">Question text not kept (hash-only audit, or erased by retention)</span>
                    )}
                  </span>
                  <span className="text-xs text-slate-600">{formatDateTime(e.at)}</span>
                  {e.revokedCitations?.map((r) => (
                    <span key={r.evidenceId} className="block text-xs font-medium text-red-800" data-testid="revoked-flag">
                      ⚠ <SafeText text={r.flag} />
                    </span>
                  ))}
                </span>
                <Badge tone={t.tone}>{t.label}</Badge>
              </summary>
              <div className="space-y-2 border-t border-slate-100 px-2.5 py-2 text-xs text-slate-700">
                {e.question && e.question.length > 70 ? (
                  <p className="whitespace-pre-wrap text-sm text-slate-900">
                    <SafeText text={e.question} />
                  </p>
                ) : null}
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
                  <dt className="text-slate-500">Outcome</dt>
                  <dd>
                    {t.label}
                    {e.errorCode ? <span className="ml-1 font-mono">{e.errorCode}</span> : null}
                    {e.needsReview ? <span className="ml-1 font-medium text-amber-900">· flagged for review</span> : null}
                  </dd>
                  {e.confidence !== null ? (
                    <>
                      <dt className="text-slate-500">Confidence</dt>
                      <dd>{Math.round(e.confidence * 100)}%</dd>
                    </>
                  ) : null}
                  <dt className="text-slate-500">Shown to the model</dt>
                  <dd>
                    {plural(e.context.nodes, "node")} · {plural(e.context.edges, "relationship")} ·{" "}
                    {plural(e.context.evidence, "evidence item")}
                  </dd>
                  {e.hiddenByPolicy !== null ? (
                    <>
                      <dt className="text-slate-500">Hidden by policy</dt>
                      <dd>{plural(e.hiddenByPolicy, "item")}</dd>
                    </>
                  ) : null}
                </dl>
                {e.citedEvidence.length || e.citedNoLongerVisible ? (
                  <div className="flex flex-wrap items-center gap-1">
                    <span className="text-slate-500">Cited:</span>
                    {e.citedEvidence.map((id) => (
                      <button
                        key={id}
                        type="button"
                        onClick={() => onOpenEvidence(id)}
                        className="rounded border border-blue-300 bg-blue-50 px-1 font-mono text-[11px] text-blue-900 hover:border-blue-600"
                      >
                        {id}
                      </button>
                    ))}
                    {e.citedNoLongerVisible ? <span>+ {plural(e.citedNoLongerVisible, "item")} you can no longer see</span> : null}
                  </div>
                ) : null}
                <p className="text-slate-500">
                  The audit trail keeps this summary, not the answer text. Ask again for a fresh answer under your current permissions.
                </p>
                {e.question ? (
                  <Button size="sm" variant="secondary" disabled={busy} onClick={() => onAskAgain(e.question!)} data-testid="ask-again">
                    Ask again
                  </Button>
                ) : null}
              </div>
            </details>
          </li>
        );
      })}
    </ul>
  );
}
