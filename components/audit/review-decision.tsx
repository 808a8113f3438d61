"use client";
// Approve (a note is required: why the answer may be delivered) or reject a held answer.
import { useState } from "react";
import { approveReviewAction, rejectReviewAction } from "@/app/(workbench)/audit/reviews/actions";
import { useAction } from "@/components/admin/use-action";
import { Alert, Button, Card, Field, Textarea } from "@/components/ui";

export function ReviewDecision({ id }: { id: string }) {
  const [note, setNote] = useState("");
  const approve = useAction(approveReviewAction);
  const reject = useAction(rejectReviewAction);
  const error = approve.error ?? reject.error;
  const done = approve.data ?? reject.data;
  return (
    <Card title="Decision">
      <form method="post" noValidate className="space-y-3" onSubmit={(e) => e.preventDefault()}>
        <Field label="Note (required to approve)" htmlFor="review-note" error={approve.fields.note ?? reject.fields.note}>
          <Textarea
            id="review-note"
            name="note"
            rows={3}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            maxLength={2000}
            data-testid="review-note"
          />
        </Field>
        <div className="flex gap-3">
          <Button type="button" busy={approve.busy} onClick={() => approve.run({ id, note })} data-testid="approve-review">
            Approve and deliver
          </Button>
          <Button
            type="button"
            variant="danger"
            busy={reject.busy}
            onClick={() => reject.run({ id, note: note || undefined })}
            data-testid="reject-review"
          >
            Reject
          </Button>
        </div>
        {error ? <Alert tone="error" title={error.message} code={error.code} /> : null}
        {done ? (
          <Alert
            tone="success"
            title={done.status === "approved" ? "Approved: the asker now has the answer." : "Rejected: the asker is told it was withheld."}
          />
        ) : null}
      </form>
    </Card>
  );
}
