"use client";
import { useState } from "react";
import { Alert, Button, ConfirmButton, Select } from "@/components/ui";
import { addMemberAction, removeMemberAction, setMemberPermissionAction } from "@/app/(workbench)/admin/actions";
import { useAction } from "./use-action";
import { revealHidden } from "@/lib/domain/display-text";

export function AddMemberForm({ caseId, candidates }: { caseId: string; candidates: Array<{ id: string; email: string; name: string }> }) {
  const [userId, setUserId] = useState("");
  const { run, busy, error, fields } = useAction(addMemberAction);
  return (
    <form
      method="post"
      noValidate
      className="flex flex-wrap items-start gap-2"
      data-testid={`add-member-${caseId}`}
      onSubmit={async (e) => {
        e.preventDefault();
        const r = await run({ caseId, userId });
        if (r.ok) setUserId("");
      }}
    >
      <label htmlFor={`add-${caseId}`} className="sr-only">
        User to add to {caseId}
      </label>
      <Select
        id={`add-${caseId}`}
        value={userId}
        onChange={(e) => setUserId(e.target.value)}
        className="max-w-xs"
        aria-invalid={!!fields.userId}
      >
        <option value="">Add a member…</option>
        {candidates.map((u) => (
          <option key={u.id} value={u.id}>
            {revealHidden(`${u.name} (${u.email})`)}
          </option>
        ))}
      </Select>
      <Button type="submit" variant="secondary" busy={busy} disabled={!userId}>
        Add
      </Button>
      {error ? <Alert tone="error" title={error.message} code={error.code} className="w-full" /> : null}
    </form>
  );
}

export function RemoveMemberButton({
  caseId,
  caseTitle,
  user,
}: {
  caseId: string;
  caseTitle: string;
  user: { id: string; email: string };
}) {
  const { run, error } = useAction(removeMemberAction);
  return (
    <>
      <ConfirmButton
        testId={`remove-${caseId}-${user.email}`}
        title={`Remove ${user.email} from ${caseTitle}?`}
        description="Their next request to this case is refused. Their past questions stay in the audit ledger."
        confirmLabel="Remove"
        onConfirm={async () => {
          await run({ caseId, userId: user.id });
        }}
      >
        Remove
      </ConfirmButton>
      {error ? <Alert tone="error" title={error.message} code={error.code} className="mt-1" /> : null}
    </>
  );
}

/** "May add evidence": the member's `ingest` permission on the case (issue 17); a ledger entry per change. */
export function IngestPermissionToggle({
  caseId,
  user,
  granted,
}: {
  caseId: string;
  user: { id: string; email: string };
  granted: boolean;
}) {
  const { run, busy, error } = useAction(setMemberPermissionAction);
  const [on, setOn] = useState(granted);
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-slate-700">
      <input
        type="checkbox"
        id={`ingest-${caseId}-${user.id}`}
        checked={on}
        disabled={busy}
        data-testid={`ingest-${caseId}-${user.email}`}
        onChange={async (e) => {
          const next = e.target.checked;
          const r = await run({ caseId, userId: user.id, permission: "ingest", granted: next });
          if (r.ok) setOn(next);
        }}
      />
      <label htmlFor={`ingest-${caseId}-${user.id}`}>May add evidence</label>
      {error ? <Alert tone="error" title={error.message} code={error.code} className="mt-1" /> : null}
    </span>
  );
}
