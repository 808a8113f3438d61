"use client";
// Approve or reject a proposed next step; a note is required either way. Nothing is executed: the decision is recorded.
import { useState } from "react";
import { approveNextStepAction, rejectNextStepAction } from "@/app/(workbench)/audit/next-steps/actions";
import { useAction } from "@/components/admin/use-action";
import { Alert, Button, Field, Textarea } from "@/components/ui";

export function NextStepDecision({ id }: { id: string }) {
  const [note, setNote] = useState("");
  const approve = useAction(approveNextStepAction);
  const reject = useAction(rejectNextStepAction);
  const error = approve.error ?? reject.error;
  const done = approve.data ?? reject.data;
  return (
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
      {done ? <Alert tone="success" title={done.status === "approved" ? "Approved: the case now lists this step." : "Rejected."} /> : null}
    </form>
  );
}
