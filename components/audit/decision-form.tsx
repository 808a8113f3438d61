"use client";
// A supervisor's decision with a note: approve or reject, the note's field errors at the field, a coded error below.
// Shared by held answers (review-decision.tsx) and proposed next steps (next-step-decision.tsx); each owns its actions.
import { useState } from "react";
import { Alert, Button, Field, Textarea } from "@/components/ui";

interface Decision {
  run(input: { note: string }): unknown;
  busy: boolean;
  error: { code: string; message: string } | null;
  fields: Record<string, string>;
}

export function DecisionForm({
  name,
  noteId,
  noteLabel,
  approveLabel,
  rows = 2,
  size,
  approve,
  reject,
}: {
  /** Test ids: `${name}-note`, `approve-${name}`, `reject-${name}`. */
  name: string;
  noteId: string;
  noteLabel: string;
  approveLabel: string;
  rows?: number;
  size?: "sm";
  approve: Decision;
  reject: Decision;
}) {
  const [note, setNote] = useState("");
  const error = approve.error ?? reject.error;
  return (
    <form method="post" noValidate className="mt-2 space-y-2" onSubmit={(e) => e.preventDefault()}>
      <Field label={noteLabel} htmlFor={noteId} error={approve.fields.note ?? reject.fields.note}>
        <Textarea
          id={noteId}
          name="note"
          rows={rows}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          maxLength={2000}
          data-testid={`${name}-note`}
        />
      </Field>
      <div className="flex gap-3">
        <Button type="button" size={size} busy={approve.busy} onClick={() => approve.run({ note })} data-testid={`approve-${name}`}>
          {approveLabel}
        </Button>
        <Button
          type="button"
          size={size}
          variant="danger"
          busy={reject.busy}
          onClick={() => reject.run({ note })}
          data-testid={`reject-${name}`}
        >
          Reject
        </Button>
      </div>
      {error ? <Alert tone="error" title={error.message} code={error.code} /> : null}
    </form>
  );
}
