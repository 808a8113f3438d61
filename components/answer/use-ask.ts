"use client";
// Asking a question through the streaming server action. The action returns a ReadableStream of events (lib/graphrag/
// stream.ts): progress stages while the pipeline runs, then the validated answer in pieces, then `done` with the full
// outcome. The client shows the stages and pieces as they arrive and keeps the final outcome.
//
// Asking is a react-query mutation with retry 0: every ask is a new, audited request and is never repeated on its own.
// Stop cancels reading the stream and discards the answer; the server may still finish, and the request stays in the
// audit trail (and in the history) either way.
import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import type { AnswerEvent } from "@/lib/graphrag/stream";
import type { Answer, GraphRagResponse, RawContext, Stage } from "@/lib/graphrag/types";

export type AskStatus = "streaming" | "done" | "stopped" | "failed";

export interface AskFailure {
  code: string;
  message: string;
  /** For model failures after retrieval: the answer shape (responseType "error") and its context. */
  answer?: Answer;
  rawContext?: RawContext;
  requestId?: string;
  auditId?: string | null;
  /** The thread the failed request was a turn of (a failed turn can still be followed up). */
  threadId?: string;
}

export interface AskState {
  id: number;
  question: string;
  /** The thread this question continues (issue 18); null: it starts a new one. */
  threadId: string | null;
  status: AskStatus;
  stage: Stage | null;
  stagesSeen: Stage[];
  pieces: string[];
  response: GraphRagResponse | null;
  failure: AskFailure | null;
}

export type AskStreamAction = (input: {
  caseId: string;
  question: string;
  threadId?: string | null;
}) => Promise<ActionResult<ReadableStream<AnswerEvent>>>;

let counter = 0;

export function useAskStream(caseId: string, action: AskStreamAction, onSettled?: () => void) {
  const [state, setState] = useState<AskState | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  const mutation = useMutation({
    retry: 0,
    mutationFn: async ({ question, threadId }: { question: string; threadId: string | null }) => {
      abortRef.current?.abort();
      const ctrl = new AbortController();
      abortRef.current = ctrl;
      const id = ++counter;
      const update = (fn: (s: AskState) => AskState) => setState((s) => (s && s.id === id ? fn(s) : s));
      const fail = (failure: AskFailure) => update((s) => ({ ...s, status: "failed", stage: null, failure }));
      setState({ id, question, threadId, status: "streaming", stage: null, stagesSeen: [], pieces: [], response: null, failure: null });

      let result: Awaited<ReturnType<AskStreamAction>>;
      try {
        result = await action({ caseId, question, ...(threadId ? { threadId } : {}) });
      } catch {
        if (!ctrl.signal.aborted)
          fail({ code: "CG-SYS-002", message: "The request could not be sent. Check the connection and ask again." });
        return;
      }
      if (ctrl.signal.aborted) {
        if (result.ok) void result.data.cancel().catch(() => {});
        return;
      }
      if (!result.ok) {
        fail({ code: result.error.code, message: result.error.message });
        return;
      }
      const reader = result.data.getReader();
      const onAbort = () => void reader.cancel().catch(() => {});
      ctrl.signal.addEventListener("abort", onAbort, { once: true });
      let finished = false;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const event = value as AnswerEvent;
          if (event.type === "progress") {
            update((s) => ({
              ...s,
              stage: event.stage,
              stagesSeen: s.stagesSeen.includes(event.stage) ? s.stagesSeen : [...s.stagesSeen, event.stage],
            }));
          } else if (event.type === "piece") {
            update((s) => {
              const pieces = [...s.pieces];
              pieces[event.index] = event.text;
              return { ...s, pieces };
            });
          } else if (event.type === "done") {
            finished = true;
            const o = event.outcome;
            if (o.ok) update((s) => ({ ...s, status: "done", stage: null, response: o.body }));
            else
              fail({
                code: o.body.error.code,
                message: o.body.error.message,
                answer: o.body.answer,
                rawContext: o.body.rawContext,
                requestId: o.body.requestId,
                auditId: o.body.auditId,
                threadId: o.body.threadId,
              });
          }
        }
      } catch {
        if (!ctrl.signal.aborted) {
          finished = true;
          fail({ code: "CG-SYS-002", message: "The answer stream was interrupted. Ask again." });
        }
      } finally {
        ctrl.signal.removeEventListener("abort", onAbort);
      }
      if (ctrl.signal.aborted && !finished) update((s) => ({ ...s, status: "stopped", stage: null }));
      else if (!finished && !ctrl.signal.aborted) fail({ code: "CG-SYS-002", message: "The answer stream ended early. Ask again." });
    },
    onSettled: () => onSettled?.(),
  });

  return {
    state,
    busy: state?.status === "streaming",
    /** Asks `question`, in thread `threadId` when given (a follow-up), else in a new thread. */
    ask: (question: string, threadId: string | null = null) => mutation.mutate({ question, threadId }),
    stop: () => {
      abortRef.current?.abort();
      setState((s) => (s && s.status === "streaming" ? { ...s, status: "stopped", stage: null } : s));
    },
    clear: () => setState(null),
  };
}
