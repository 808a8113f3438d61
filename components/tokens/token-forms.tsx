"use client";
import { useRef, useState } from "react";
import { Alert, Button, ConfirmButton, Field, Input, Select } from "@/components/ui";
import { TOKEN_EXPIRIES } from "@/lib/admin/tokens.validation";
import { revokeTokenAction } from "@/app/(workbench)/admin/actions";
import { createOwnTokenAction, revokeOwnTokenAction } from "@/app/(workbench)/account/actions";
import { useAction, fieldText } from "@/components/admin/use-action";

const EXPIRY_LABELS: Record<string, string> = { "1d": "1 day", "7d": "7 days", "30d": "30 days", "90d": "90 days", "365d": "1 year" };

/** A token for the signed-in user (tokens are created by their owner; admins only revoke). */
export function CreateTokenForm() {
  const formRef = useRef<HTMLFormElement>(null);
  const { run, busy, error, fields, data, reset } = useAction(createOwnTokenAction);
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-4">
      {data ? (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-4" data-testid="issued-token">
          <p className="text-sm font-semibold text-amber-900">Copy this token now. It is shown once and stored only as a hash.</p>
          <div className="mt-2 flex items-center gap-2">
            <code
              className="block flex-1 break-all rounded bg-white px-2 py-1.5 font-mono text-sm text-slate-900 ring-1 ring-amber-200"
              data-testid="token-secret"
            >
              {data.token}
            </code>
            <Button
              variant="secondary"
              size="sm"
              onClick={async () => {
                await navigator.clipboard?.writeText(data.token).catch(() => {});
                setCopied(true);
              }}
            >
              {copied ? "Copied" : "Copy"}
            </Button>
          </div>
          <p className="mt-2 text-xs text-amber-900">
            Use it as <code className="font-mono">Authorization: Bearer …</code>. Expires {new Date(data.expiresAt).toLocaleString()}.
          </p>
          <Button
            variant="ghost"
            size="sm"
            className="mt-2"
            onClick={() => {
              setCopied(false);
              reset();
            }}
          >
            Done
          </Button>
        </div>
      ) : null}
      <form
        method="post"
        ref={formRef}
        noValidate
        className="grid gap-4 sm:grid-cols-3"
        data-testid="create-token-form"
        onSubmit={async (e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          setCopied(false);
          const r = await run({ name: fieldText(f, "name"), expiresIn: fieldText(f, "expiresIn") as never });
          if (r.ok) formRef.current?.reset();
        }}
      >
        {error ? <Alert tone="error" title={error.message} code={error.code} className="sm:col-span-3" /> : null}
        <Field label="Name" htmlFor="token-name" error={fields.name} hint="What it is for, e.g. reporting script">
          <Input id="token-name" name="name" autoComplete="off" aria-invalid={!!fields.name} />
        </Field>
        <Field label="Expires in" htmlFor="token-expiry" error={fields.expiresIn}>
          <Select id="token-expiry" name="expiresIn" defaultValue="7d" aria-invalid={!!fields.expiresIn}>
            {TOKEN_EXPIRIES.map((x) => (
              <option key={x} value={x}>
                {EXPIRY_LABELS[x] ?? x}
              </option>
            ))}
          </Select>
        </Field>
        <div className="flex items-end">
          <Button type="submit" busy={busy}>
            Create token
          </Button>
        </div>
      </form>
    </div>
  );
}

/** Revokes a token: the owner's own (`own`), or any of the tenant's as its admin. */
export function RevokeTokenButton({
  token,
  own = false,
}: {
  token: { id: string; name: string; prefix: string; userEmail: string };
  own?: boolean;
}) {
  const { run, error } = useAction(own ? revokeOwnTokenAction : revokeTokenAction);
  return (
    <>
      <ConfirmButton
        testId={`revoke-${token.id}`}
        title={`Revoke "${token.name}"?`}
        description={
          <>
            The token <code className="font-mono">{token.prefix}…</code> of {token.userEmail} stops working on its next request. This cannot
            be undone.
          </>
        }
        confirmLabel="Revoke"
        onConfirm={async () => {
          await run({ tokenId: token.id });
        }}
      >
        Revoke
      </ConfirmButton>
      {error ? <Alert tone="error" title={error.message} code={error.code} className="mt-1" /> : null}
    </>
  );
}
