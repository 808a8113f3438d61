"use client";
import { useRef } from "react";
import { Alert, Button, Checkbox, Field, Input } from "@/components/ui";
import { LICENSE_USES } from "@/lib/domain/markings";
import { createLicenseAction, updateLicenseAction } from "@/app/(workbench)/admin/actions";
import { checkedValues, useAction, fieldText } from "./use-action";

export function LicenseForm({ license }: { license?: { id: string; name: string; allows: string[] } }) {
  const formRef = useRef<HTMLFormElement>(null);
  const { run, busy, error, fields, data } = useAction(license ? updateLicenseAction : createLicenseAction);
  const prefix = license ? `lic-${license.id}` : "lic-new";
  return (
    <form
      method="post"
      ref={formRef}
      noValidate
      className="grid gap-3 sm:grid-cols-3"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const r = await run({
          id: license?.id ?? fieldText(f, "id"),
          name: fieldText(f, "name"),
          allows: checkedValues(f, "allows") as never,
        });
        if (r.ok && !license) formRef.current?.reset();
      }}
    >
      {error ? <Alert tone="error" title={error.message} code={error.code} className="sm:col-span-3" /> : null}
      {data ? <Alert tone="success" title={license ? "Saved." : `Created ${data.id}.`} className="sm:col-span-3" /> : null}
      {license ? null : (
        <Field label="License id" htmlFor={`${prefix}-id`} error={fields.id}>
          <Input id={`${prefix}-id`} name="id" autoComplete="off" aria-invalid={!!fields.id} />
        </Field>
      )}
      <Field label="Name" htmlFor={`${prefix}-name`} error={fields.name}>
        <Input id={`${prefix}-name`} name="name" defaultValue={license?.name} aria-invalid={!!fields.name} />
      </Field>
      <fieldset className="space-y-1 sm:col-span-3">
        <legend className="text-sm font-medium text-slate-800">Allowed uses</legend>
        <div className="flex flex-wrap gap-4">
          {LICENSE_USES.map((u) => (
            <Checkbox key={u} name="allows" value={u} label={u} defaultChecked={license?.allows.includes(u)} />
          ))}
        </div>
        {fields.allows ? (
          <p role="alert" className="text-xs font-medium text-red-700">
            {fields.allows}
          </p>
        ) : null}
      </fieldset>
      <div className="sm:col-span-3">
        <Button type="submit" variant={license ? "secondary" : "primary"} busy={busy}>
          {license ? "Save" : "Create license"}
        </Button>
      </div>
    </form>
  );
}
