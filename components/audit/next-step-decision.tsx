"use client";
// One proposed next step on the supervisors' list: approve or reject it with a required note. Nothing is executed: the
// decision is recorded. The card shows the outcome itself instead of refreshing the page: on the "pending" list a
// refresh would remove the card, and its confirmation with it, the moment the decision lands.
import { useState, type ReactNode } from "react";
import { approveNextStepAction, rejectNextStepAction } from "@/app/(workbench)/audit/next-steps/actions";
import { useAction } from "@/components/admin/use-action";
import { Alert, Badge, Button, Field, SafeText, Textarea } from "@/components/ui";
import type { ProposalView } from "@/lib/server/playbooks/proposals";

const TONE = { pending: "amber", approved: "green", rejected: "red" } as const;

type Decided = Pick<ProposalView, "id" | "playbookId" | "status" | "deciderEmail" | "note">;

export function ProposalCard({ proposal, children }: { proposal: Decided; children: ReactNode }) {
  const [note, setNote] = useState("");
  const approve = useAction(approveNextStepAction, { refresh: false });
  const reject = useAction(rejectNextStepAction, { refresh: false });
  const error = approve.error ?? reject.error;
  const current: Decided = approve.data ?? reject.data ?? proposal;
  const id = proposal.id;
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm" data-testid={`proposal-${proposal.playbookId}`}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">{children}</div>
        <Badge tone={TONE[current.status]}>{current.status}</Badge>
      </div>
      {current.status === "pending" ? (
        <form method="post" noValidate className="mt-2 space-y-2" onSubmit={(e) => e.preventDefault()}>
          <Field label="Note (required)" htmlFor={`note-${id}`} error={approve.fields.note ?? reject.fields.note}>
            <Textarea
              id={`note-${id}`}
              name="note"
              rows={2}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              maxLength={2000}
              data-testid="next-step-note"
            />
          </Field>
          <div className="flex gap-3">
            <Button type="button" size="sm" busy={approve.busy} onClick={() => approve.run({ id, note })} data-testid="approve-next-step">
              Approve
            </Button>
            <Button
              type="button"
              size="sm"
              variant="danger"
              busy={reject.busy}
              onClick={() => reject.run({ id, note })}
              data-testid="reject-next-step"
            >
              Reject
            </Button>
          </div>
          {error ? <Alert tone="error" title={error.message} code={error.code} /> : null}
        </form>
      ) : (
        <>
          {current !== proposal ? (
            <Alert tone="success" title={current.status === "approved" ? "Approved: the case now lists this step." : "Rejected."} />
          ) : null}
          <p className="mt-2 text-sm text-slate-700">
            {current.status === "approved" ? "Approved" : "Rejected"} by {current.deciderEmail}: <SafeText text={current.note ?? ""} />
          </p>
        </>
      )}
    </li>
  );
}
