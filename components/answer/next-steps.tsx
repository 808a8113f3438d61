"use client";
// Suggested next steps (issue 16): playbooks from the agency's catalogue that fit this case and this user — never
// free text — shown under the answer as "Suggested next steps — require approval". An investigator may propose one
// for the case; a supervisor approves or rejects it (Audit → Next steps); nothing is ever executed by Casegraph. The
// case's proposed and approved steps are listed in the "Next steps" tab.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { loadCaseNextSteps, proposeNextStepAction, suggestNextStepsAction } from "@/app/(workbench)/cases/[caseId]/next-steps-actions";
import { errorOf, unwrap } from "@/components/providers";
import { Alert, Badge, Button, SafeText } from "@/components/ui";
import { useAction } from "@/components/admin/use-action";
import type { Answer } from "@/lib/graphrag/types";
import type { Suggestion } from "@/lib/playbooks/suggest";
import type { ProposalView } from "@/lib/server/playbooks/proposals";

/** Under an answer: its suggestions when it carries some, else a button that asks the catalogue, citing the answer. */
export function SuggestedNextSteps({ caseId, question, answer }: { caseId: string; question: string; answer: Answer }) {
  const ask = useAction(suggestNextStepsAction);
  const given = answer.suggestions ? { suggestions: answer.suggestions, requestId: answer.suggestionRequestId ?? null } : null;
  const fetched = ask.data ? { suggestions: ask.data.suggestions, requestId: ask.data.requestId } : null;
  const shown = given ?? fetched;
  const canAsk = !given && (answer.responseType === "answer" || answer.responseType === "no_evidence");
  if (!shown && !canAsk) return null;
  return (
    <section
      aria-labelledby="next-steps-heading"
      className="space-y-2 rounded-md border border-amber-200 bg-amber-50/40 p-2"
      data-testid="next-steps"
    >
      <h3 id="next-steps-heading" className="text-xs font-semibold uppercase tracking-wide text-amber-900">
        Suggested next steps — require approval
      </h3>
      {shown ? (
        shown.suggestions.length ? (
          <ol className="space-y-2">
            {shown.suggestions.map((s) => (
              <SuggestionItem key={s.playbookId} caseId={caseId} suggestion={s} requestId={shown.requestId} />
            ))}
          </ol>
        ) : (
          <p className="text-xs text-slate-700" data-testid="no-suggestions">
            No playbook of your agency&apos;s catalogue fits this case and your permissions.
          </p>
        )
      ) : (
        <Button
          type="button"
          size="sm"
          variant="secondary"
          busy={ask.busy}
          data-testid="suggest-next-steps"
          onClick={() =>
            void ask.run({
              caseId,
              question,
              followUp: { answerText: answer.answerText, evidenceIds: [...new Set(answer.citations.map((c) => c.evidenceId))] },
            })
          }
        >
          Suggest next steps from the playbook catalogue
        </Button>
      )}
      {ask.error ? <Alert tone="error" title={ask.error.message} code={ask.error.code} /> : null}
      <p className="text-[11px] leading-4 text-slate-600">
        From your agency&apos;s playbook catalogue, filtered by the case, your clearance, need-to-know and legal authority before the model
        picked. Casegraph executes nothing: a proposed step waits for a supervisor&apos;s decision.
      </p>
    </section>
  );
}

function SuggestionItem({ caseId, suggestion: s, requestId }: { caseId: string; suggestion: Suggestion; requestId: string | null }) {
  const qc = useQueryClient();
  const propose = useAction(proposeNextStepAction);
  return (
    <li
      className="rounded border border-slate-200 bg-white p-2 text-sm"
      data-testid={`suggestion-${s.playbookId}`}
      data-playbook-id={s.playbookId}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">
            <SafeText text={s.description} />
          </p>
          <p className="font-mono text-[11px] text-slate-500">
            {s.playbookId} · {s.version} · confidence {Math.round(s.confidence * 100)}%
          </p>
        </div>
        {propose.data ? (
          <Badge tone="amber">proposed</Badge>
        ) : (
          <Button
            type="button"
            size="sm"
            busy={propose.busy}
            data-testid={`propose-${s.playbookId}`}
            onClick={async () => {
              const r = await propose.run({
                caseId,
                playbookId: s.playbookId,
                version: s.version,
                reason: s.reason,
                citations: s.citations,
                ...(requestId ? { suggestionRequestId: requestId } : {}),
              });
              if (r.ok) void qc.invalidateQueries({ queryKey: ["next-steps", caseId] });
            }}
          >
            Propose for this case
          </Button>
        )}
      </div>
      <p className="mt-1 text-xs text-slate-700">
        <SafeText text={s.reason} />
        {s.citations.length ? <span className="ml-1 font-mono text-[11px] text-slate-500">({s.citations.join(", ")})</span> : null}
      </p>
      {propose.data ? (
        <p className="mt-1 text-xs text-amber-900" data-testid="proposed">
          Proposed for this case: waiting for a supervisor&apos;s approval.
        </p>
      ) : null}
      {propose.error ? <Alert tone="error" title={propose.error.message} code={propose.error.code} className="mt-1" /> : null}
    </li>
  );
}

const TONE = { approved: "green", pending: "amber", rejected: "red" } as const;

/** The "Next steps" tab: the case's proposed steps, approved first, with the supervisor's decision and note. */
export function CaseNextSteps({ caseId }: { caseId: string }) {
  const steps = useQuery({ queryKey: ["next-steps", caseId], queryFn: () => unwrap(loadCaseNextSteps({ caseId })) });
  const error = errorOf(steps.error);
  if (error) return <Alert tone="error" title={error.message} code={error.code} />;
  if (!steps.data) return <p className="text-sm text-slate-600">Loading…</p>;
  const approved = steps.data.steps.filter((s) => s.status === "approved");
  const others = steps.data.steps.filter((s) => s.status !== "approved");
  return (
    <section className="space-y-3" aria-label="Next steps for this case" data-testid="case-next-steps">
      <div className="flex items-center justify-between">
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-600">Approved next steps</h3>
        <Button size="sm" variant="secondary" onClick={() => void steps.refetch()}>
          Refresh
        </Button>
      </div>
      {approved.length ? (
        <ul className="space-y-2" data-testid="approved-steps">
          {approved.map((s) => (
            <StepItem key={s.id} step={s} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">No approved steps yet. Ask for next steps, propose one, and a supervisor decides.</p>
      )}
      {others.length ? (
        <>
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-600">Proposed and rejected</h3>
          <ul className="space-y-2" data-testid="other-steps">
            {others.map((s) => (
              <StepItem key={s.id} step={s} />
            ))}
          </ul>
        </>
      ) : null}
      {steps.data.hidden ? (
        <p className="text-xs text-slate-600">{steps.data.hidden} proposed step(s) of this case are outside your permissions.</p>
      ) : null}
      <p className="text-[11px] text-slate-500">Casegraph records these decisions; it carries out none of them.</p>
    </section>
  );
}

function StepItem({ step: s }: { step: ProposalView }) {
  return (
    <li className="rounded-md border border-slate-200 bg-white p-2 text-sm" data-testid={`step-${s.playbookId}`} data-status={s.status}>
      <div className="flex items-start justify-between gap-2">
        <SafeText text={s.description} className="font-medium" />
        <Badge tone={TONE[s.status]}>{s.status}</Badge>
      </div>
      <p className="font-mono text-[11px] text-slate-500">
        {s.playbookId} · {s.version} · proposed by {s.proposerEmail} {s.createdAt.slice(0, 16).replace("T", " ")}
      </p>
      {s.decidedAt ? (
        <p className="mt-1 text-xs text-slate-700">
          {s.status === "approved" ? "Approved" : "Rejected"} by {s.deciderEmail}: <SafeText text={s.note ?? ""} />
        </p>
      ) : null}
    </li>
  );
}
