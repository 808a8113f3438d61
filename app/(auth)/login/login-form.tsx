"use client";
// A progressively enhanced server-action form: React renders it as <form method="POST"> on the server, so it signs in
// with or without JavaScript and the password never appears in a URL (a form with no method would submit as GET
// before hydration). With JavaScript, useActionState keeps the page and shows errors in place.
import { useActionState } from "react";
import { Alert, Button, Field, Input } from "@/components/ui";
import { signInFormAction, type SignInFormState } from "../actions";

export function LoginForm({ next }: { next: string }) {
  const [state, formAction, pending] = useActionState<SignInFormState, FormData>(signInFormAction, null);
  const fields = state?.fields ?? {};
  return (
    <form action={formAction} className="space-y-4" noValidate data-testid="login-form">
      {state?.error ? <Alert tone="error" title={state.error.message} code={state.error.code} /> : null}
      <input type="hidden" name="next" value={next} />
      <Field label="Email" htmlFor="email" error={fields.email}>
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus
          defaultValue={state?.email ?? ""}
          aria-invalid={!!fields.email}
        />
      </Field>
      <Field label="Password" htmlFor="password" error={fields.password}>
        <Input id="password" name="password" type="password" autoComplete="current-password" required aria-invalid={!!fields.password} />
      </Field>
      <Button type="submit" className="w-full" busy={pending}>
        Sign in
      </Button>
    </form>
  );
}
