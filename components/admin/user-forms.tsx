"use client";
import { useRef } from "react";
import { Alert, Button, Checkbox, ConfirmButton, Field, Input, Select } from "@/components/ui";
import { CLASSIFICATIONS, ROLES } from "@/lib/domain/markings";
import { classificationLabel } from "@/components/ui/classification";
import { createUserAction, resetPasswordAction, setUserActiveAction, updateUserAction } from "@/app/(workbench)/admin/actions";
import { checkedValues, useAction, fieldText } from "./use-action";

function RolesField({ defaults, error, idPrefix, disabled }: { defaults: string[]; error?: string; idPrefix: string; disabled?: boolean }) {
  return (
    <fieldset className="space-y-1" aria-describedby={error ? `${idPrefix}-roles-error` : undefined}>
      <legend className="block text-sm font-medium text-slate-800">Roles</legend>
      <div className="flex flex-wrap gap-4 pt-1">
        {ROLES.map((r) => (
          <Checkbox
            key={r}
            name="roles"
            value={r}
            label={r}
            defaultChecked={defaults.includes(r)}
            disabled={disabled}
            data-testid={`${idPrefix}-role-${r}`}
          />
        ))}
      </div>
      {error ? (
        <p id={`${idPrefix}-roles-error`} role="alert" className="text-xs font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Levels above `max` (the admin's own clearance) are shown but not offered: the server refuses them (CG-ACCESS-006). */
function ClearanceSelect({
  id,
  defaultValue,
  invalid,
  max,
  disabled,
}: {
  id: string;
  defaultValue?: string;
  invalid?: boolean;
  max: string;
  disabled?: boolean;
}) {
  const limit = CLASSIFICATIONS.indexOf(max as (typeof CLASSIFICATIONS)[number]);
  return (
    <Select id={id} name="clearance" defaultValue={defaultValue ?? ""} aria-invalid={invalid} disabled={disabled}>
      <option value="" disabled>
        Choose…
      </option>
      {CLASSIFICATIONS.map((c, i) => (
        <option key={c} value={c} disabled={i > limit && c !== defaultValue}>
          {classificationLabel(c)}
          {i > limit ? " (above yours)" : ""}
        </option>
      ))}
    </Select>
  );
}

export function CreateUserForm({ maxClearance }: { maxClearance: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  const { run, busy, error, fields, data } = useAction(createUserAction);
  return (
    <form
      method="post"
      ref={formRef}
      noValidate
      className="grid gap-4 sm:grid-cols-2"
      data-testid="create-user-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const result = await run({
          email: fieldText(f, "email"),
          name: fieldText(f, "name"),
          roles: checkedValues(f, "roles") as never,
          clearance: fieldText(f, "clearance") as never,
          needToKnow: fieldText(f, "needToKnow"),
          password: fieldText(f, "password"),
        });
        if (result.ok) formRef.current?.reset();
      }}
    >
      {error ? <Alert tone="error" title={error.message} code={error.code} className="sm:col-span-2" /> : null}
      {data ? <Alert tone="success" title={`Created ${data.email}.`} className="sm:col-span-2" /> : null}
      <Field label="Email" htmlFor="new-email" error={fields.email}>
        <Input id="new-email" name="email" type="email" autoComplete="off" aria-invalid={!!fields.email} />
      </Field>
      <Field label="Name" htmlFor="new-name" error={fields.name}>
        <Input id="new-name" name="name" autoComplete="off" aria-invalid={!!fields.name} />
      </Field>
      <RolesField defaults={["investigator"]} error={fields.roles} idPrefix="new" />
      <Field label="Clearance" htmlFor="new-clearance" error={fields.clearance}>
        <ClearanceSelect id="new-clearance" invalid={!!fields.clearance} max={maxClearance} />
      </Field>
      <Field label="Need-to-know tags" htmlFor="new-tags" error={fields.needToKnow} hint="Comma-separated, e.g. narcotics, homicide">
        <Input id="new-tags" name="needToKnow" autoComplete="off" aria-invalid={!!fields.needToKnow} />
      </Field>
      <Field
        label="Initial password"
        htmlFor="new-password"
        error={fields.password}
        hint="At least 12 characters; give it to the user out of band."
      >
        <Input id="new-password" name="password" type="password" autoComplete="new-password" aria-invalid={!!fields.password} />
      </Field>
      <div className="sm:col-span-2">
        <Button type="submit" busy={busy}>
          Create user
        </Button>
      </div>
    </form>
  );
}

/**
 * `self`: the admin's own account — only the name can change here (separation of duties: another admin changes an
 * admin's own clearance, tags and roles; the server refuses it anyway, CG-ACCESS-005).
 */
export function EditUserForm({
  user,
  maxClearance,
  self,
}: {
  user: { id: string; name: string; roles: string[]; clearance: string; needToKnow: string[] };
  maxClearance: string;
  self: boolean;
}) {
  const { run, busy, error, fields, data } = useAction(updateUserAction);
  return (
    <form
      method="post"
      noValidate
      className="grid gap-4 sm:grid-cols-2"
      data-testid="edit-user-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        await run({
          userId: user.id,
          name: fieldText(f, "name"),
          roles: (self ? user.roles : checkedValues(f, "roles")) as never,
          clearance: (self ? user.clearance : fieldText(f, "clearance")) as never,
          needToKnow: self ? user.needToKnow.join(", ") : fieldText(f, "needToKnow"),
        });
      }}
    >
      {error ? <Alert tone="error" title={error.message} code={error.code} className="sm:col-span-2" /> : null}
      {data ? <Alert tone="success" title="Saved. The change applies to the user's next request." className="sm:col-span-2" /> : null}
      <Field label="Name" htmlFor="edit-name" error={fields.name}>
        <Input id="edit-name" name="name" defaultValue={user.name} aria-invalid={!!fields.name} />
      </Field>
      <Field label="Clearance" htmlFor="edit-clearance" error={fields.clearance}>
        <ClearanceSelect
          id="edit-clearance"
          defaultValue={user.clearance}
          invalid={!!fields.clearance}
          max={maxClearance}
          disabled={self}
        />
      </Field>
      <RolesField defaults={user.roles} error={fields.roles} idPrefix="edit" disabled={self} />
      <Field label="Need-to-know tags" htmlFor="edit-tags" error={fields.needToKnow} hint="Comma-separated">
        <Input
          id="edit-tags"
          name="needToKnow"
          defaultValue={user.needToKnow.join(", ")}
          aria-invalid={!!fields.needToKnow}
          disabled={self}
        />
      </Field>
      {self ? (
        <p className="text-sm text-slate-600 sm:col-span-2" data-testid="own-permissions-note">
          This is your own account: another admin of your tenant changes your clearance, need-to-know, roles and case memberships.
        </p>
      ) : null}
      <div className="sm:col-span-2">
        <Button type="submit" busy={busy}>
          Save changes
        </Button>
      </div>
    </form>
  );
}

export function UserStatusControl({ user, self }: { user: { id: string; email: string; active: boolean }; self: boolean }) {
  const { run, error } = useAction(setUserActiveAction);
  return (
    <div className="space-y-2">
      {error ? <Alert tone="error" title={error.message} code={error.code} /> : null}
      {user.active ? (
        <ConfirmButton
          testId="deactivate-user"
          title={`Deactivate ${user.email}?`}
          description="Their sessions end now and every request from them (including API tokens) is refused until an admin reactivates the account."
          confirmLabel="Deactivate"
          disabled={self}
          onConfirm={async () => {
            await run({ userId: user.id, active: false });
          }}
        >
          Deactivate
        </ConfirmButton>
      ) : (
        <ConfirmButton
          testId="reactivate-user"
          variant="primary"
          title={`Reactivate ${user.email}?`}
          description="They can sign in again with their password; their roles, clearance and memberships are unchanged."
          confirmLabel="Reactivate"
          onConfirm={async () => {
            await run({ userId: user.id, active: true });
          }}
        >
          Reactivate
        </ConfirmButton>
      )}
      {self ? <p className="text-xs text-slate-500">You cannot deactivate yourself.</p> : null}
    </div>
  );
}

export function ResetPasswordForm({ userId }: { userId: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  const { run, error, fields, data } = useAction(resetPasswordAction);
  return (
    <form method="post" ref={formRef} noValidate className="space-y-3" onSubmit={(e) => e.preventDefault()}>
      {error ? <Alert tone="error" title={error.message} code={error.code} /> : null}
      {data ? <Alert tone="success" title={`Password changed; ${data.sessionsEnded} session(s) ended.`} /> : null}
      <Field label="New password" htmlFor="reset-password" error={fields.password} hint="At least 12 characters. The user's sessions end.">
        <Input id="reset-password" name="password" type="password" autoComplete="new-password" aria-invalid={!!fields.password} />
      </Field>
      <ConfirmButton
        testId="reset-password"
        variant="secondary"
        size="md"
        title="Reset this user's password?"
        description="The new password applies at once and every session of the user ends."
        confirmLabel="Reset password"
        onConfirm={async () => {
          const f = new FormData(formRef.current ?? undefined);
          const result = await run({ userId, password: fieldText(f, "password") });
          if (result.ok) formRef.current?.reset();
        }}
      >
        Reset password
      </ConfirmButton>
    </form>
  );
}
