"use client";
// The question box: examples drawn from the case's visible graph, Enter to ask (Shift+Enter for a new line), the
// pipeline's progress while it runs, and Stop.
import { useId, useState } from "react";
import { Button, cn } from "@/components/ui";
import type { Stage } from "@/lib/graphrag/types";
import type { ExampleQuestion } from "@/lib/domain/workbench-views";
import { SafeText } from "@/components/ui/safe-text";

const MAX = 2_000;

export const STAGES: Array<{ stage: Stage; label: string }> = [
  { stage: "retrieving", label: "Retrieving" },
  { stage: "filtering", label: "Policy filter" },
  { stage: "asking_model", label: "Asking the model" },
  { stage: "validating", label: "Validating" },
];

export function AskPanel({
  value,
  onChange,
  onAsk,
  onStop,
  busy,
  canAsk,
  examples,
  stage,
  stagesSeen,
  inputRef,
  thread,
  onLeaveThread,
}: {
  value: string;
  onChange: (v: string) => void;
  onAsk: () => void;
  onStop: () => void;
  busy: boolean;
  canAsk: boolean;
  examples: ExampleQuestion[];
  stage: Stage | null;
  stagesSeen: Stage[];
  inputRef?: React.Ref<HTMLTextAreaElement>;
  /** The thread the next question continues (issue 18); null: it starts a new thread. */
  thread?: { id: string; title: string | null } | null;
  onLeaveThread?: () => void;
}) {
  const id = useId();
  // Examples are offered up front; once a question has been asked they fold away behind a toggle.
  const [examplesOpen, setExamplesOpen] = useState<boolean | null>(null);
  const showExamples = examplesOpen ?? stagesSeen.length === 0;
  const tooLong = value.length > MAX;
  const disabled = !canAsk || busy || !value.trim() || tooLong;
  return (
    <form
      method="post"
      className="space-y-2"
      aria-label="Ask about this case"
      onSubmit={(e) => {
        e.preventDefault();
        if (!disabled) onAsk();
      }}
    >
      <div className="flex items-baseline justify-between">
        <label htmlFor={`${id}-q`} className="text-sm font-semibold text-slate-900">
          Ask about this case
        </label>
        <span className="flex items-center gap-3">
          {examples.length ? (
            <button
              type="button"
              className="text-xs text-blue-800 hover:underline"
              aria-expanded={showExamples}
              aria-controls={`${id}-examples`}
              onClick={() => setExamplesOpen(!showExamples)}
            >
              {showExamples ? "Hide examples" : "Examples"}
            </button>
          ) : null}
          <span className={cn("text-xs tabular-nums", tooLong ? "font-semibold text-red-700" : "text-slate-500")} aria-live="polite">
            {value.length.toLocaleString("en-US")} / {MAX.toLocaleString("en-US")}
          </span>
        </span>
      </div>
      {thread ? (
        <p
          className="flex flex-wrap items-center gap-x-2 rounded-md border border-blue-200 bg-blue-50 px-2 py-1 text-xs text-blue-950"
          data-testid="follow-up-banner"
          data-thread-id={thread.id}
        >
          <span>
            Following up in{" "}
            {thread.title ? (
              <>
                “<SafeText text={thread.title} />”
              </>
            ) : (
              "this thread"
            )}
            : “he”, “that number”, “the company” refer to what its answers cited.
          </span>
          <button type="button" className="ml-auto text-blue-800 underline" onClick={onLeaveThread} data-testid="new-thread">
            New thread instead
          </button>
        </p>
      ) : null}
      <textarea
        id={`${id}-q`}
        ref={inputRef}
        value={value}
        rows={2}
        maxLength={MAX + 200}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            if (!disabled) onAsk();
          }
        }}
        placeholder={thread ? "e.g. What phone does he use?" : "e.g. Who was seen at the scene, and what links them to the victim?"}
        aria-describedby={`${id}-hint`}
        aria-invalid={tooLong || undefined}
        className="block w-full resize-y rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-500 focus:border-blue-600 focus:outline-none focus:ring-1 focus:ring-blue-600"
        data-testid="question-input"
      />
      <p id={`${id}-hint`} className="sr-only">
        Press Enter to ask, Shift+Enter for a new line. Answers cite only evidence you are allowed to see.
      </p>
      <div className="flex items-center gap-2">
        {/* Distinct keys: the Stop button must never become the submit button under the pointer mid-click (which
            would submit the form again right after stopping). */}
        {busy ? (
          <Button
            key="stop"
            type="button"
            variant="danger"
            size="sm"
            onClick={(e) => {
              e.preventDefault();
              onStop();
            }}
            data-testid="stop-button"
          >
            <span aria-hidden className="inline-block h-2.5 w-2.5 rounded-[2px] bg-white" /> Stop
          </Button>
        ) : (
          <Button key="ask" type="submit" size="sm" disabled={disabled} data-testid="ask-button">
            Ask
          </Button>
        )}
        {busy || stagesSeen.length ? <Progress stage={stage} seen={stagesSeen} busy={busy} /> : null}
      </div>
      {examples.length && showExamples ? (
        <div
          id={`${id}-examples`}
          className="flex flex-wrap items-center gap-1.5 pt-0.5"
          aria-label="Example questions from this case"
          role="group"
        >
          <span className="text-xs text-slate-600">Try:</span>
          {examples.map((ex) => (
            <button
              key={ex.question}
              type="button"
              onClick={() => onChange(ex.question)}
              className="rounded-full border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-800 hover:border-blue-600 hover:text-blue-900"
              data-testid="example-question"
            >
              {ex.question}
            </button>
          ))}
        </div>
      ) : null}
    </form>
  );
}

function Progress({ stage, seen, busy }: { stage: Stage | null; seen: Stage[]; busy: boolean }) {
  const current = STAGES.findIndex((s) => s.stage === stage);
  const label = stage ? STAGES[current]?.label : null;
  return (
    <ol
      className="flex min-w-0 flex-wrap items-center gap-x-0.5 text-xs"
      aria-label="Progress"
      data-testid="ask-progress"
      data-stages-seen={seen.join(" ")}
    >
      {STAGES.map((s, i) => {
        const done = seen.includes(s.stage) && (i < current || !busy || current === -1);
        const now = busy && s.stage === stage;
        return (
          <li
            key={s.stage}
            className={cn(
              "inline-flex items-center gap-1 whitespace-nowrap rounded px-1 py-0.5",
              now ? "bg-blue-100 font-medium text-blue-900" : done ? "text-green-800" : "text-slate-500",
            )}
            aria-current={now ? "step" : undefined}
          >
            {now ? (
              <span aria-hidden className="h-2.5 w-2.5 animate-spin rounded-full border-2 border-blue-700 border-t-transparent" />
            ) : done ? (
              <span aria-hidden>✓</span>
            ) : (
              <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-slate-400" />
            )}
            {s.label}
          </li>
        );
      })}
      <li className="sr-only" aria-live="polite">
        {busy && label ? `${label}…` : ""}
      </li>
    </ol>
  );
}
