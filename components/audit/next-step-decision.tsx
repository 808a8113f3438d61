"use client";
// One proposed next step on the supervisors' list: approve or reject it with a required note. Nothing is executed: the
// decision is recorded. The card shows the outcome itself instead of refreshing the page: on the "pending" list a
// refresh would remove the card, and its confirmation with it, the moment the decision lands.
import type { ReactNode } from "react";
import { approveNextStepAction, rejectNextStepAction } from "@/app/(workbench)/audit/next-steps/actions";
import { useAction } from "@/components/admin/use-action";
import { Alert, Badge, SafeText } from "@/components/ui";
import type { ProposalView } from "@/lib/server/playbooks/proposals";
import { DecisionForm } from "./decision-form";

const TONE = { pending: "amber", approved: "green", rejected: "red" } as const;

type Decided = Pick<ProposalView, "id" | "playbookId" | "status" | "deciderEmail" | "note">;

export function ProposalCard({ proposal, children }: { proposal: Decided; children: ReactNode }) {
  const approve = useAction(approveNextStepAction, { refresh: false });
  const reject = useAction(rejectNextStepAction, { refresh: false });
  const current: Decided = approve.data ?? reject.data ?? proposal;
  const id = proposal.id;
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm" data-testid={`proposal-${proposal.playbookId}`}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">{children}</div>
        <Badge tone={TONE[current.status]}>{current.status}</Badge>
      </div>
      {current.status === "pending" ? (
        <DecisionForm
          name="next-step"
          noteId={`note-${id}`}
          noteLabel="Note (required)"
          approveLabel="Approve"
          size="sm"
          approve={{ ...approve, run: ({ note }) => approve.run({ id, note }) }}
          reject={{ ...reject, run: ({ note }) => reject.run({ id, note }) }}
        />
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
