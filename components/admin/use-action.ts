"use client";
// Runs a server action that returns an ActionResult: tracks busy state, the coded error and per-field errors, and
// refreshes the page's server data after a success.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { fieldErrors } from "@/lib/domain/field-errors";

export type Result<T> =
  { ok: true; data: T } | { ok: false; error: { code: string; message: string; issues?: Array<{ path?: string; message: string }> } };

/** `refresh: false` when the component shows the outcome itself and a refresh would unmount it (a filtered list). */
export function useAction<I, T>(action: (input: I) => Promise<Result<T>>, { refresh = true }: { refresh?: boolean } = {}) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [data, setData] = useState<T | null>(null);

  async function run(input: I): Promise<Result<T>> {
    setBusy(true);
    setError(null);
    setFields({});
    try {
      const result = await action(input);
      if (result.ok) {
        setData(result.data);
        if (refresh) router.refresh();
      } else {
        const f = fieldErrors(result.error.issues);
        setFields(f);
        // Field problems are shown at the fields; a general message only when nothing else explains the failure.
        if (!Object.keys(f).length || f._form) setError({ code: result.error.code, message: f._form ?? result.error.message });
        else setError({ code: result.error.code, message: "Check the highlighted fields." });
      }
      return result;
    } catch {
      const e = { code: "CG-SYS-002", message: "The request failed. Try again." };
      setError(e);
      return { ok: false, error: e };
    } finally {
      setBusy(false);
    }
  }

  return {
    run,
    busy,
    error,
    fields,
    data,
    reset: () => {
      setError(null);
      setFields({});
      setData(null);
    },
  };
}

/** A text field of a submitted form ("" when absent): the one way forms read their fields. */
export function fieldText(form: FormData, name: string): string {
  return String(form.get(name) ?? "");
}

/** The checked values of a group of checkboxes with this name. */
export function checkedValues(form: FormData, name: string): string[] {
  return form.getAll(name).map(String);
}
