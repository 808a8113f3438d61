"use client";
import { useState } from "react";
import { Alert, Button, Field, Input, fieldErrors } from "@/components/ui";
import { signInAction } from "../actions";

export function LoginForm({ next }: { next: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    setFields({});
    try {
      const result = await signInAction({ email: String(form.get("email") ?? ""), password: String(form.get("password") ?? ""), next });
      if (result.ok) {
        window.location.assign(result.data.redirectTo);
        return;
      }
      setFields(fieldErrors(result.error.issues));
      setError(result.error.issues?.length ? null : result.error);
    } catch {
      setError({ code: "CG-SYS-002", message: "Sign-in failed. Try again." });
    }
    setBusy(false);
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      {error ? <Alert tone="error" title={error.message} code={error.code} /> : null}
      <Field label="Email" htmlFor="email" error={fields.email}>
        <Input id="email" name="email" type="email" autoComplete="username" required autoFocus aria-invalid={!!fields.email} />
      </Field>
      <Field label="Password" htmlFor="password" error={fields.password}>
        <Input id="password" name="password" type="password" autoComplete="current-password" required aria-invalid={!!fields.password} />
      </Field>
      <Button type="submit" className="w-full" busy={busy}>
        Sign in
      </Button>
    </form>
  );
}
