"use client";
// The asker's answers held for review (under the answer policies, or drafted from evidence that has expired): pending,
// withheld (rejected) or delivered after a supervisor approved them (shown here, marked as reviewed, with a flag per
// expired item cited and who released it). Empty → nothing rendered.
import { useQuery } from "@tanstack/react-query";
import { loadHeldAnswers } from "@/app/(workbench)/cases/[caseId]/review-actions";
import { errorOf, unwrap } from "@/components/providers";
import { Alert, Badge, Button, SafeText } from "@/components/ui";
import { stripMarkers } from "@/lib/graphrag/claims";

export function HeldAnswers({ caseId }: { caseId: string }) {
  const held = useQuery({ queryKey: ["held", caseId], queryFn: () => unwrap(loadHeldAnswers({ caseId })) });
  const error = errorOf(held.error);
  if (error) return <Alert tone="error" title={error.message} code={error.code} />;
  if (!held.data?.length) return null;
  return (
    <section className="mb-3 space-y-2" aria-label="Answers held for review" data-testid="held-answers">
      <div className="flex items-center justify-between">
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-600">Held for review</h3>
        <Button size="sm" variant="secondary" onClick={() => void held.refetch()}>
          Refresh
        </Button>
      </div>
      <ul className="space-y-2">
        {held.data.map((h) => (
          <li key={h.id} className="rounded-md border border-slate-200 bg-white p-2 text-sm" data-testid={`held-${h.id}`}>
            <div className="flex items-start justify-between gap-2">
              <span>
                <SafeText text={h.question} className="font-medium" />
                {h.reason === "expired_evidence" && h.status === "pending" ? (
                  <span className="block text-xs text-slate-600">
                    The evidence that would answer has expired; a supervisor must release it.
                  </span>
                ) : null}
              </span>
              <Badge tone={h.status === "pending" ? "amber" : h.status === "approved" ? "green" : "red"}>
                {h.status === "pending" ? "pending review" : h.status === "approved" ? "reviewed" : "withheld"}
              </Badge>
            </div>
            {h.status === "rejected" ? (
              <p className="mt-1 text-slate-700">
                A supervisor withheld this answer.
                {h.note ? (
                  <>
                    {" "}
                    Note: <SafeText text={h.note} />
                  </>
                ) : null}
              </p>
            ) : null}
            {h.noLongerVisible ? (
              <p className="mt-1 text-slate-700" data-testid="held-no-longer-visible">
                A supervisor released this answer, but it cites evidence you can no longer see, so it is not shown. Ask again.
              </p>
            ) : null}
            {h.answer ? (
              <div className="mt-1 space-y-1" data-testid="reviewed-answer">
                <p className="whitespace-pre-wrap">
                  <SafeText text={stripMarkers(h.answer.answerText).replace(/\s+([.,;])/g, "$1")} />
                </p>
                {h.answer.expiredCitations.length ? (
                  <ul className="text-xs text-amber-800" data-testid="expired-citations">
                    {h.answer.expiredCitations.map((c) => (
                      <li key={c.evidenceId}>
                        <SafeText text={c.flag} />
                      </li>
                    ))}
                  </ul>
                ) : null}
                <p className="text-xs text-slate-600">
                  Cites {[...new Set(h.answer.citations.map((c) => c.evidenceId))].join(", ") || "nothing"}.
                  {h.note ? (
                    <>
                      {" "}
                      Reviewer&apos;s note: <SafeText text={h.note} />
                    </>
                  ) : null}
                </p>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
