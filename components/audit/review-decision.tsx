"use client";
// Approve (a note is required: why the answer may be delivered) or reject a held answer.
import { approveReviewAction, rejectReviewAction } from "@/app/(workbench)/audit/reviews/actions";
import { useAction } from "@/components/admin/use-action";
import { Alert, Card } from "@/components/ui";
import { DecisionForm } from "./decision-form";

export function ReviewDecision({ id }: { id: string }) {
  const approve = useAction(approveReviewAction);
  const reject = useAction(rejectReviewAction);
  const done = approve.data ?? reject.data;
  return (
    <Card title="Decision">
      <DecisionForm
        name="review"
        noteId="review-note"
        noteLabel="Note (required to approve)"
        approveLabel="Approve and deliver"
        rows={3}
        approve={{ ...approve, run: ({ note }) => approve.run({ id, note }) }}
        reject={{ ...reject, run: ({ note }) => reject.run({ id, note: note || undefined }) }}
      />
      {done ? (
        <Alert
          tone="success"
          title={done.status === "approved" ? "Approved: the asker now has the answer." : "Rejected: the asker is told it was withheld."}
        />
      ) : null}
    </Card>
  );
}
