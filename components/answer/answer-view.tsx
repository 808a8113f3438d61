"use client";
// One answer: the response-type banner, the text with citation chips (streamed pieces first, the validated text once
// done), confidence with its justification and the review warning, the explanation steps (select one to highlight its
// nodes and relationships), and what the model was shown.
import { NodeLink } from "@/components/case-graph/node-link";
import { Alert, Button, cn } from "@/components/ui";
import type { Answer, ExplanationStep, RawContext } from "@/lib/graphrag/types";
import { CitationChip, CitationText } from "./citation-text";
import { classifyStepCitations } from "./citations";
import { plural } from "./format";
import type { AskState } from "./use-ask";
import { SafeText } from "@/components/ui/safe-text";
import { ProvenanceFooter } from "./provenance-footer";
import { SuggestedNextSteps } from "./next-steps";

export interface StepTargets {
  nodes: string[];
  edges: string[];
  evidence: string[];
}

export interface GraphNames {
  nodeName(id: string): string | null;
  edgeLabel(id: string): string | null;
}

/** What an explanation step points at, resolved against the answer's context. */
export function stepTargets(step: ExplanationStep, ctx: RawContext): StepTargets & { unknown: string[] } {
  const evidence = new Set(ctx.evidenceSnippets.map((s) => s.id));
  const nodes = new Set(ctx.nodes.map((n) => n.id));
  const edgeByKey = new Map<string, string>();
  for (const e of ctx.edges) {
    edgeByKey.set(e.id, e.id);
    edgeByKey.set(`${e.source}:${e.type}:${e.target}`, e.id);
  }
  const c = classifyStepCitations(step.citations, {
    evidence: (id) => evidence.has(id),
    node: (id) => nodes.has(id),
    edge: (k) => edgeByKey.has(k),
  });
  return { ...c, edges: c.edges.map((k) => edgeByKey.get(k)!) };
}

export function AnswerView({
  caseId,
  state,
  knownIds,
  names,
  activeStep,
  onStep,
  onSelectNode,
  onFollowUp,
}: {
  caseId: string;
  state: AskState;
  knownIds: ReadonlySet<string>;
  names: GraphNames;
  activeStep: number | null;
  onStep: (stepNumber: number | null, targets: StepTargets | null) => void;
  onSelectNode: (id: string) => void;
  /** Continue this answer's thread with the next question (issue 18). */
  onFollowUp?: (threadId: string) => void;
}) {
  const answer: Answer | null = state.response?.answer ?? state.failure?.answer ?? null;
  const rawContext: RawContext | null = state.response?.rawContext ?? state.failure?.rawContext ?? null;
  const streaming = state.status === "streaming";
  const text = answer ? answer.answerText : state.pieces.join(" ");
  const type = answer?.responseType ?? null;

  return (
    <article
      className="space-y-3"
      aria-labelledby="answer-heading"
      aria-busy={streaming}
      data-testid="answer"
      data-status={state.status}
      data-response-type={type ?? ""}
    >
      {/* The question stays in view while a long answer scrolls under it. */}
      <header className="sticky top-0 z-10 bg-white pb-1">
        <h2 id="answer-heading" className="text-xs font-semibold uppercase tracking-wide text-slate-600">
          Answer
        </h2>
        <p className="mt-0.5 text-sm font-medium text-slate-900" data-testid="answer-question">
          <SafeText text={state.question} />
        </p>
        <ThreadLine state={state} onFollowUp={onFollowUp} />
      </header>

      <Banner state={state} type={type} />

      {text && type !== "refused" && type !== "error" ? (
        <div className="text-sm leading-6 text-slate-900 xl:text-[15px] xl:leading-7" data-testid="answer-text">
          <CitationText text={text} knownIds={knownIds} pending={streaming} claims={answer?.claims} />
          {streaming ? <span aria-hidden className="ml-0.5 inline-block h-4 w-1.5 translate-y-0.5 animate-pulse bg-slate-400" /> : null}
        </div>
      ) : streaming ? (
        <div className="space-y-2" aria-hidden>
          <div className="h-3 w-11/12 animate-pulse rounded bg-slate-200" />
          <div className="h-3 w-9/12 animate-pulse rounded bg-slate-200" />
          <div className="h-3 w-10/12 animate-pulse rounded bg-slate-200" />
        </div>
      ) : null}

      {answer && type !== "refused" && type !== "error" ? <Confidence answer={answer} /> : null}

      {answer ? <PartialClaims answer={answer} /> : null}

      {answer && rawContext && answer.explanationSteps.length ? (
        <section aria-labelledby="steps-heading" className="space-y-1.5">
          <div className="flex items-baseline justify-between">
            <h3 id="steps-heading" className="text-xs font-semibold uppercase tracking-wide text-slate-600">
              How the answer was reached
            </h3>
            {activeStep !== null ? (
              <button type="button" className="text-xs text-blue-800 underline" onClick={() => onStep(null, null)}>
                Clear highlight
              </button>
            ) : null}
          </div>
          <ol className="space-y-1.5" data-testid="explanation-steps">
            {answer.explanationSteps.map((step) => (
              <Step
                key={step.stepNumber}
                step={step}
                ctx={rawContext}
                knownIds={knownIds}
                names={names}
                active={activeStep === step.stepNumber}
                onStep={onStep}
                onSelectNode={onSelectNode}
              />
            ))}
          </ol>
        </section>
      ) : null}

      {answer && state.response && !streaming ? <SuggestedNextSteps caseId={caseId} question={state.question} answer={answer} /> : null}

      {answer ? (
        <footer className="border-t border-slate-200 pt-2 text-xs text-slate-600" data-testid="context-summary">
          Shown to the model: {plural(answer.usedContextSummary.numNodes, "node")} ·{" "}
          {plural(answer.usedContextSummary.numEdges, "relationship")} ·{" "}
          {plural(answer.usedContextSummary.numEvidenceSnippets, "evidence item")}
          {state.response ? (
            <span className="block font-mono text-[11px] text-slate-500">
              request {state.response.requestId} · audit {state.response.auditId}
            </span>
          ) : null}
          {answer.provenance ? <ProvenanceFooter provenance={answer.provenance} /> : null}
        </footer>
      ) : null}
    </article>
  );
}

/** Which turn of which thread this is, how a follow-up was read, and "Follow up" to continue the thread. */
function ThreadLine({ state, onFollowUp }: { state: AskState; onFollowUp?: (threadId: string) => void }) {
  const threadId = state.response?.threadId ?? state.failure?.threadId ?? null;
  const turn = state.response?.turn ?? null;
  const reading = state.response?.followUp ?? null;
  if (!threadId && state.status !== "streaming") return null;
  return (
    <div
      className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600"
      data-testid="answer-thread"
      data-thread-id={threadId ?? ""}
    >
      <span>
        {state.status === "streaming"
          ? state.threadId
            ? "Follow-up in the current thread"
            : "New thread"
          : turn && turn > 1
            ? `Follow-up · turn ${turn} of its thread`
            : turn === 1
              ? "Starts a new thread"
              : "Turn of a thread"}
      </span>
      {reading ? (
        <span data-testid="answer-reading">
          · read as “<SafeText text={reading.resolvedQuestion} />”
        </span>
      ) : null}
      {threadId && onFollowUp && state.status !== "streaming" ? (
        <Button size="sm" variant="secondary" className="ml-auto" onClick={() => onFollowUp(threadId)} data-testid="follow-up">
          Follow up
        </Button>
      ) : null}
    </div>
  );
}

function Banner({ state, type }: { state: AskState; type: Answer["responseType"] | null }) {
  if (state.status === "stopped") {
    return (
      <Alert tone="info" title="Stopped" className="text-sm">
        You stopped this answer. The request had already been sent, so it is still recorded in the audit trail.
      </Alert>
    );
  }
  if (state.failure) {
    return (
      <div data-testid="banner-error">
        <Alert tone="error" title="The question could not be answered" code={state.failure.code}>
          {state.failure.message}
          {state.failure.requestId ? (
            <span className="mt-1 block font-mono text-[11px] opacity-75">request {state.failure.requestId}</span>
          ) : null}
        </Alert>
      </div>
    );
  }
  const answer = state.response?.answer;
  if (!answer) return null;
  if (type === "refused") {
    return (
      <div data-testid="banner-refused">
        <Alert tone="warning" title="Refused">
          {answer.answerText}
          {answer.suggestions ? (
            // A request for next steps: no advice in the model's words, the agency's catalogue instead (issue 16).
            <span className="mt-1 block" data-testid="refused-with-suggestions">
              Below are playbooks from your agency&apos;s catalogue that fit this case and your permissions; each needs a supervisor&apos;s
              approval, and Casegraph carries out none of them.
            </span>
          ) : null}
        </Alert>
      </div>
    );
  }
  if (type === "no_evidence") {
    return (
      <div data-testid="banner-no-evidence">
        <Alert tone="info" title="No supporting evidence">
          Nothing you may see in this case supports an answer. See the unknowns for what was searched and what was hidden.
        </Alert>
      </div>
    );
  }
  if (type === "escalated") {
    const expired = answer.heldFor === "expired_evidence";
    return (
      <div data-testid="banner-escalated">
        <Alert
          tone="warning"
          title={expired ? "Held: the evidence that would answer has expired" : "Held for review"}
          code={expired ? "CG-GROUND-013" : undefined}
        >
          {answer.answerText}
          {answer.reviewId ? <span className="mt-1 block font-mono text-[11px] opacity-75">review {answer.reviewId}</span> : null}
        </Alert>
      </div>
    );
  }
  if (type === "unable") {
    return (
      <div data-testid="banner-unable">
        <Alert tone="warning" title="Unable to generate a citation-backed answer" code="CG-CITE-001">
          The model&apos;s statements could not be tied to evidence it was shown, so they are withheld.
        </Alert>
      </div>
    );
  }
  return null;
}

function Confidence({ answer }: { answer: Answer }) {
  const pct = Math.round(Math.max(0, Math.min(1, answer.confidence)) * 100);
  const low = answer.confidence < 0.5;
  const tone = low ? "bg-red-600" : answer.confidence < 0.75 ? "bg-amber-500" : "bg-green-600";
  const review = answer.needsReview || low;
  return (
    <section className="space-y-1.5" aria-label="Confidence">
      <div className="flex items-center gap-2">
        <span className="text-xs font-semibold uppercase tracking-wide text-slate-600">Confidence</span>
        <div
          role="meter"
          aria-label="Confidence"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          aria-valuetext={`${pct}%`}
          className="h-2 w-32 overflow-hidden rounded-full bg-slate-200"
          data-testid="confidence-meter"
        >
          <div className={cn("h-full rounded-full", tone)} style={{ width: `${pct}%` }} />
        </div>
        <span className="text-sm font-semibold tabular-nums text-slate-900">{pct}%</span>
      </div>
      <p className="text-xs leading-5 text-slate-700">{answer.confidenceJustification}</p>
      {review ? (
        <div data-testid="needs-review">
          <Alert tone="warning" title="Needs human review">
            {low
              ? "Confidence is below 50%. Check the cited evidence and the unknowns before relying on this answer."
              : "Validation removed part of the model's output or could not support it fully. Check the citations before relying on this answer."}
          </Alert>
        </div>
      ) : null}
    </section>
  );
}

/** The partly supported claims, listed with their reasons (the text marks them too). */
export function PartialClaims({ answer }: { answer: Pick<Answer, "claims"> }) {
  const partial = (answer.claims ?? []).filter((c) => c.support === "partial");
  if (!partial.length) return null;
  return (
    <section aria-labelledby="partial-claims-heading" className="space-y-1" data-testid="partial-claims">
      <h3 id="partial-claims-heading" className="text-xs font-semibold uppercase tracking-wide text-slate-600">
        Partly supported claims
      </h3>
      <ul className="space-y-1 text-xs leading-5 text-slate-700">
        {partial.map((c) => (
          <li key={c.claimId} data-claim-id={c.claimId}>
            <span className="font-mono text-[11px] text-slate-500">{c.claimId}</span>{" "}
            <span className="underline decoration-amber-600 decoration-dotted decoration-2 underline-offset-4">
              <SafeText text={c.text} />
            </span>
            {" — "}
            <SafeText text={c.reasons.join("; ")} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Step({
  step,
  ctx,
  knownIds,
  names,
  active,
  onStep,
  onSelectNode,
}: {
  step: ExplanationStep;
  ctx: RawContext;
  knownIds: ReadonlySet<string>;
  names: GraphNames;
  active: boolean;
  onStep: (n: number | null, t: StepTargets | null) => void;
  onSelectNode: (id: string) => void;
}) {
  const t = stepTargets(step, ctx);
  const highlightable = t.nodes.length + t.edges.length + t.evidence.length > 0;
  return (
    <li
      className={cn("rounded-md border px-2.5 py-2 text-sm", active ? "border-amber-500 bg-amber-50" : "border-slate-200 bg-white")}
      data-testid={`step-${step.stepNumber}`}
    >
      <button
        type="button"
        aria-pressed={active}
        disabled={!highlightable}
        onClick={() => onStep(active ? null : step.stepNumber, active ? null : t)}
        className="flex w-full items-start gap-2 rounded text-left"
        aria-label={`Step ${step.stepNumber}: highlight its ${plural(t.nodes.length, "node")} and ${plural(t.edges.length, "relationship")} in the graph`}
      >
        <span
          className={cn(
            "mt-0.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full px-1 text-[11px] font-bold",
            active ? "bg-amber-500 text-white" : "bg-slate-200 text-slate-800",
          )}
        >
          {step.stepNumber}
        </span>
        <span className="leading-6 text-slate-900">{step.claim}</span>
      </button>
      {highlightable || t.unknown.length ? (
        <div className="mt-1.5 flex flex-wrap items-center gap-1 pl-7 text-xs">
          {t.evidence.map((id) =>
            knownIds.has(id) || ctx.evidenceSnippets.some((s) => s.id === id) ? (
              <CitationChip key={id} evidenceId={id} claimId={null} claim={step.claim} />
            ) : null,
          )}
          {t.nodes.map((id) => (
            <NodeLink key={id} id={id} name={names.nodeName(id)} onSelect={onSelectNode} />
          ))}
          {t.edges.map((id) => (
            <span key={id} className="rounded border border-dashed border-slate-400 px-1.5 py-px text-slate-700" title={id}>
              {names.edgeLabel(id) ?? id}
            </span>
          ))}
          {t.unknown.map((id) => (
            <span key={id} className="px-1 text-slate-500" title="Not in the context the model was shown">
              {id}
            </span>
          ))}
        </div>
      ) : null}
    </li>
  );
}
