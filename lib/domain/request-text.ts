// Text that arrives in a URL (path segments, query values): pure checks shared by the proxy (proxy.ts) and the
// pages that read parameters. Control characters never reach a database or a log from here: they are refused
// before any I/O with a coded error (issue 11 §3, §12).

/** C0 and C1 control characters and DEL (tab, newline and carriage return included: none belongs in a URL value). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export const MAX_URL_VALUE = 500;

/** Why a decoded URL value is refused, or null when it is fine. */
export function urlValueProblem(value: string): "control_characters" | "too_long" | null {
  if (CONTROL.test(value)) return "control_characters";
  if (value.length > MAX_URL_VALUE) return "too_long";
  return null;
}

/** Decodes a percent-encoded path or query part; null when the encoding is malformed. */
export function decodeUrlPart(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

/** A positive integer id from a URL (a ledger sequence number, a page number): null unless 1 ≤ n ≤ 2^53 − 1. */
export function positiveIntParam(raw: unknown): number | null {
  if (typeof raw !== "string" || !/^[1-9][0-9]{0,15}$/.test(raw)) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : null;
}
