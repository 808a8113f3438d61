"use client";
import { Alert, Button, Field, Input } from "@/components/ui";
import { renameTenantAction } from "@/app/(workbench)/admin/actions";
import { useAction } from "./use-action";

export function TenantNameForm({ name }: { name: string }) {
  const { run, busy, error, fields, data } = useAction(renameTenantAction);
  return (
    <form
      noValidate
      className="flex flex-wrap items-end gap-3"
      onSubmit={async (e) => {
        e.preventDefault();
        await run({ name: String(new FormData(e.currentTarget).get("name") ?? "") });
      }}
    >
      <Field label="Tenant name" htmlFor="tenant-name" error={fields.name} className="min-w-72 flex-1">
        <Input id="tenant-name" name="name" defaultValue={name} aria-invalid={!!fields.name} />
      </Field>
      <Button type="submit" busy={busy}>Rename</Button>
      {error ? <Alert tone="error" title={error.message} code={error.code} className="w-full" /> : null}
      {data ? <Alert tone="success" title="Renamed." className="w-full" /> : null}
    </form>
  );
}
