"use client";
import { Alert, Button, Field, Input } from "@/components/ui";
import { renameTenantAction, setHiddenCountModeAction } from "@/app/(workbench)/admin/actions";
import { useAction, fieldText } from "./use-action";

export function TenantNameForm({ name }: { name: string }) {
  const { run, busy, error, fields, data } = useAction(renameTenantAction);
  return (
    <form
      method="post"
      noValidate
      className="flex flex-wrap items-end gap-3"
      onSubmit={async (e) => {
        e.preventDefault();
        await run({ name: fieldText(new FormData(e.currentTarget), "name") });
      }}
    >
      <Field label="Tenant name" htmlFor="tenant-name" error={fields.name} className="min-w-72 flex-1">
        <Input id="tenant-name" name="name" defaultValue={name} aria-invalid={!!fields.name} />
      </Field>
      <Button type="submit" busy={busy}>
        Rename
      </Button>
      {error ? <Alert tone="error" title={error.message} code={error.code} className="w-full" /> : null}
      {data ? <Alert tone="success" title="Renamed." className="w-full" /> : null}
    </form>
  );
}

/** The tenant's choice of how answers report what the policy hid (README "Hidden items in answers"). */
export function HiddenCountsForm({ mode }: { mode: "case" | "exact" }) {
  const { run, busy, error, data } = useAction(setHiddenCountModeAction);
  const current = data?.mode ?? mode;
  return (
    <form
      method="post"
      noValidate
      className="space-y-3"
      onSubmit={async (e) => {
        e.preventDefault();
        await run({ mode: new FormData(e.currentTarget).get("mode") === "exact" ? "exact" : "case" });
      }}
    >
      <fieldset className="space-y-2 text-sm">
        <legend className="font-medium">Hidden items in answers</legend>
        <label className="flex items-start gap-2">
          <input type="radio" name="mode" value="case" defaultChecked={current === "case"} className="mt-1" />
          <span>
            <span className="font-medium">Case totals</span> (recommended): an answer says how many items of the whole case are outside the
            asker&apos;s permissions — the same for every question.
          </span>
        </label>
        <label className="flex items-start gap-2">
          <input type="radio" name="mode" value="exact" defaultChecked={current === "exact"} className="mt-1" />
          <span>
            <span className="font-medium">Exact per question</span>: an answer says how many hidden items matched this question. A user can
            then test whether a name or phrase appears in evidence they may not read, one question at a time.
          </span>
        </label>
      </fieldset>
      <Button type="submit" busy={busy}>
        Save
      </Button>
      {error ? <Alert tone="error" title={error.message} code={error.code} /> : null}
      {data ? (
        <Alert
          tone="success"
          title={data.mode === "exact" ? "Answers now give exact per-question counts." : "Answers now give case totals."}
        />
      ) : null}
    </form>
  );
}
