"use client";
// The user's threads on this case (issue 18), in the history tab: each with its turns (the question, and the answer as
// the user may see it now — what rests on anything they can no longer see reads "no longer visible to you"), and
// Follow up, Rename and Close. Every thread shown came from the server already filtered for this user.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Badge, Button, Input } from "@/components/ui";
import { SafeText } from "@/components/ui/safe-text";
import { errorOf, unwrap } from "@/components/providers";
import type { ActionResult } from "@/lib/auth/guard";
import type { ThreadSummary, ThreadView } from "@/lib/domain/workbench-views";
import { CitationText } from "./citation-text";
import { LoadProblem } from "./load-problem";
import { formatDateTime, plural } from "./format";

export interface ThreadActions {
  loadThread(input: { caseId: string; threadId: string }): Promise<ActionResult<ThreadView>>;
  rename(input: { caseId: string; threadId: string; title: string }): Promise<ActionResult<ThreadSummary>>;
  close(input: { caseId: string; threadId: string }): Promise<ActionResult<ThreadSummary>>;
}

export function ThreadsPanel({
  caseId,
  threads,
  loading,
  error,
  onRetry,
  actions,
  activeThreadId,
  onFollowUp,
  busy,
}: {
  caseId: string;
  threads: ThreadSummary[] | undefined;
  loading: boolean;
  error: { code: string; message: string } | null;
  onRetry: () => void;
  actions: ThreadActions;
  activeThreadId: string | null;
  onFollowUp: (thread: ThreadSummary) => void;
  busy: boolean;
}) {
  if (loading && !threads) return <p className="p-1 text-sm text-slate-600">Loading your threads…</p>;
  if (error) return <LoadProblem what="Your threads" code={error.code} onRetry={onRetry} />;
  return (
    <section aria-labelledby="threads-heading" className="space-y-1.5" data-testid="threads">
      <h2 id="threads-heading" className="text-xs font-semibold uppercase tracking-wide text-slate-600">
        Threads
      </h2>
      {!threads?.length ? (
        <p className="p-1 text-sm text-slate-600" data-testid="threads-empty">
          No threads yet. Every question starts one; “Follow up” on an answer continues it.
        </p>
      ) : (
        <ul className="space-y-1.5" data-testid="thread-list">
          {threads.map((t) => (
            <ThreadItem
              key={t.id}
              caseId={caseId}
              thread={t}
              actions={actions}
              active={t.id === activeThreadId}
              onFollowUp={onFollowUp}
              busy={busy}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function ThreadItem({
  caseId,
  thread,
  actions,
  active,
  onFollowUp,
  busy,
}: {
  caseId: string;
  thread: ThreadSummary;
  actions: ThreadActions;
  active: boolean;
  onFollowUp: (thread: ThreadSummary) => void;
  busy: boolean;
}) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(thread.title);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const view = useQuery({
    queryKey: ["thread", caseId, thread.id, thread.turns],
    enabled: open,
    queryFn: () => unwrap(actions.loadThread({ caseId, threadId: thread.id })),
  });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ["threads", caseId] });
    void qc.invalidateQueries({ queryKey: ["thread", caseId, thread.id] });
  };
  const run = async (call: Promise<ActionResult<ThreadSummary>>) => {
    setSaving(true);
    setProblem(null);
    try {
      await unwrap(call);
      setRenaming(false);
      refresh();
    } catch (err) {
      setProblem(errorOf(err)?.message ?? "Something went wrong.");
    } finally {
      setSaving(false);
    }
  };
  const err = errorOf(view.error);
  return (
    <li
      className="rounded-md border border-slate-200 bg-white"
      data-testid="thread"
      data-thread-id={thread.id}
      data-turns={thread.turns}
      data-closed={thread.closed ? "true" : "false"}
    >
      <details className="group" open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
        <summary className="flex cursor-pointer list-none items-start gap-2 px-2.5 py-2 text-sm marker:hidden">
          <span aria-hidden className="mt-1 text-[10px] text-slate-500 transition-transform group-open:rotate-90">
            ▶
          </span>
          <span className="min-w-0 flex-1">
            <span className="block truncate font-medium text-slate-900" data-testid="thread-title">
              <SafeText text={thread.title} />
            </span>
            <span className="text-xs text-slate-600">
              {plural(thread.turns, "turn")} · {formatDateTime(thread.updatedAt)}
            </span>
          </span>
          {active ? <Badge tone="blue">following up</Badge> : null}
          {thread.closed ? <Badge tone="neutral">closed</Badge> : null}
        </summary>
        <div className="space-y-2 border-t border-slate-100 px-2.5 py-2 text-xs text-slate-700">
          <div className="flex flex-wrap items-center gap-1.5">
            {!thread.closed ? (
              <Button size="sm" disabled={busy} onClick={() => onFollowUp(thread)} data-testid="thread-follow-up">
                Follow up
              </Button>
            ) : null}
            <Button size="sm" variant="secondary" onClick={() => setRenaming((r) => !r)} data-testid="thread-rename">
              Rename
            </Button>
            {!thread.closed ? (
              <Button
                size="sm"
                variant="ghost"
                busy={saving && !renaming}
                onClick={() => void run(actions.close({ caseId, threadId: thread.id }))}
                data-testid="thread-close"
              >
                Close thread
              </Button>
            ) : null}
          </div>
          {renaming ? (
            <form
              className="flex items-center gap-1.5"
              onSubmit={(e) => {
                e.preventDefault();
                void run(actions.rename({ caseId, threadId: thread.id, title }));
              }}
            >
              <label className="sr-only" htmlFor={`title-${thread.id}`}>
                Thread title
              </label>
              <Input
                id={`title-${thread.id}`}
                value={title}
                maxLength={120}
                onChange={(e) => setTitle(e.target.value)}
                className="py-1 text-xs"
                data-testid="thread-title-input"
              />
              <Button size="sm" type="submit" busy={saving} data-testid="thread-rename-save">
                Save
              </Button>
            </form>
          ) : null}
          {problem ? (
            <p role="alert" className="text-red-800">
              {problem}
            </p>
          ) : null}
          {view.isLoading ? <p>Loading the thread…</p> : null}
          {err ? <LoadProblem what="The thread" code={err.code} onRetry={() => void view.refetch()} /> : null}
          {view.data ? (
            <ol className="space-y-2" data-testid="thread-turns">
              {view.data.turns.map((t) => (
                <li
                  key={t.turn}
                  className="rounded border border-slate-100 bg-slate-50/60 p-2"
                  data-testid="thread-turn"
                  data-turn={t.turn}
                >
                  <p className="text-[11px] text-slate-500">
                    Turn {t.turn} · {formatDateTime(t.at)}
                  </p>
                  <p className="font-medium text-slate-900" data-testid="thread-turn-question">
                    {t.question !== null ? (
                      <SafeText text={t.question} />
                    ) : (
                      <span className="italic text-slate-600">Question text not kept</span>
                    )}
                  </p>
                  {t.references.length ? (
                    <p className="text-[11px] text-slate-600" data-testid="thread-turn-reading">
                      Read as:{" "}
                      {t.references.map((r, i) => (
                        <span key={i}>
                          {i ? "; " : ""}“<SafeText text={r.phrase} />” ={" "}
                          {r.name !== null ? <SafeText text={r.name} /> : <em>no longer visible to you</em>}
                        </span>
                      ))}
                    </p>
                  ) : null}
                  <div className="mt-1 text-sm leading-6 text-slate-800" data-testid="thread-turn-answer">
                    {t.responseType === "answer" ? (
                      <CitationText text={t.answerText} knownIds={new Set(t.citedEvidence)} claims={[]} />
                    ) : (
                      <span className="text-slate-700">
                        <Badge tone={t.responseType === "error" ? "red" : "amber"}>{t.responseType.replace("_", " ")}</Badge>{" "}
                        {t.errorCode ? <span className="font-mono text-[11px]">{t.errorCode}</span> : <SafeText text={t.answerText} />}
                      </span>
                    )}
                  </div>
                  {t.noLongerVisible ? (
                    <p className="mt-1 text-[11px] text-amber-900" data-testid="thread-turn-hidden">
                      {plural(t.noLongerVisible, "part")} of this answer {t.noLongerVisible === 1 ? "is" : "are"} no longer visible to you.
                    </p>
                  ) : null}
                </li>
              ))}
            </ol>
          ) : null}
        </div>
      </details>
    </li>
  );
}
