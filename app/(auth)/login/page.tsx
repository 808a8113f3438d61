import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentActor, safeNextPath } from "@/lib/auth/current";
import { LoginForm } from "./login-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · Casegraph" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  if (await currentActor()) redirect(safeNextPath(next));
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <h1 className="text-2xl font-semibold tracking-tight">Casegraph</h1>
          <p className="mt-1 text-sm text-slate-600">Sign in with the account your administrator gave you.</p>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <LoginForm next={safeNextPath(next)} />
        </div>
        <p className="mt-4 text-center text-xs text-slate-500">There is no self-service sign-up. Ask an administrator for an account.</p>
      </div>
    </main>
  );
}
