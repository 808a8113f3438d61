"use server";
// Sign-in and sign-out: the public server actions (listed as such in tests/integration/authz-matrix.test.ts). All check
// the Origin like every guarded action; sign-in goes through the database lockout before better-auth checks the
// password, and answers every failure with the same generic message. signInFormAction is the login page's form (it
// works without JavaScript); signInAction is the same sign-in for callers that pass an object.
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { assertActionOrigin, inputError, toActionError, type ActionResult } from "@/lib/auth/guard";
import { fieldErrors } from "@/lib/domain/field-errors";
import { applySetCookies, signInWithPassword, signOut } from "@/lib/auth/sign-in";
import { safeNextPath } from "@/lib/auth/current";
import { SESSION_COOKIE } from "@/lib/auth/session";
import { runtime } from "@/lib/server/runtime";

const signInInput = z.object({
  email: z.string().trim().min(1, "Enter your email.").max(254),
  password: z.string().min(1, "Enter your password.").max(256),
  next: z.string().max(500).optional(),
});

export async function signInAction(raw: z.input<typeof signInInput>): Promise<ActionResult<{ redirectTo: string }>> {
  try {
    const h = await assertActionOrigin();
    const parsed = signInInput.safeParse(raw);
    if (!parsed.success) throw inputError(parsed.error);
    const { db } = await runtime();
    const { setCookies } = await signInWithPassword(db.prisma, parsed.data, h);
    applySetCookies(await cookies(), setCookies);
    return { ok: true, data: { redirectTo: safeNextPath(parsed.data.next) } };
  } catch (err) {
    return toActionError(err);
  }
}

export type SignInFormState = { error?: { code: string; message: string }; fields?: Record<string, string>; email?: string } | null;

/** The login form: on success a redirect (303 without JavaScript), otherwise the form again with its errors. */
export async function signInFormAction(_prev: SignInFormState, form: FormData): Promise<SignInFormState> {
  const email = String(form.get("email") ?? "");
  const result = await signInAction({ email, password: String(form.get("password") ?? ""), next: String(form.get("next") ?? "") });
  if (result.ok) redirect(result.data.redirectTo);
  const fields = fieldErrors(result.error.issues);
  return { email, fields, ...(Object.keys(fields).length ? {} : { error: { code: result.error.code, message: result.error.message } }) };
}

export async function signOutAction(): Promise<void> {
  const h = await assertActionOrigin();
  const { db } = await runtime();
  const jar = await cookies();
  applySetCookies(jar, await signOut(db.prisma, h));
  // A stale cookie (session already ended by an admin) is cleared too.
  for (const name of [SESSION_COOKIE, `__Secure-${SESSION_COOKIE}`]) if (jar.has(name)) jar.delete(name);
  redirect("/login");
}
