// Call-detail records (issue 17): a CSV whose header names the caller, the callee and the time (and maybe the
// duration) becomes one evidence item per row, linked to the phone nodes of both numbers. Numbers the case has no node
// for become Phone nodes, and each caller → callee pair one CALLED edge, all marked like the file. Pure: rows in,
// evidence text and graph rows out; the CSV itself is parsed (streamed) by the adapter.

export interface CallColumns {
  caller: number;
  callee: number;
  time: number;
  duration: number | null;
  /** Every column's header, for the other cells of a row (cell id, call type…). */
  header: string[];
}

const NAMES = {
  caller: ["caller", "from", "a_number", "anumber", "a-number", "calling", "calling_number", "source", "originator", "msisdn_a"],
  callee: ["callee", "to", "b_number", "bnumber", "b-number", "called", "called_number", "destination", "recipient", "msisdn_b"],
  time: ["time", "start", "start_time", "started_at", "timestamp", "date", "datetime", "call_time", "date_time"],
  duration: ["duration", "seconds", "duration_s", "duration_seconds", "duration_sec", "length"],
} as const;

const norm = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s.]+/g, "_");

/** The columns of a call-record header, or the name of the first one missing. */
export function callColumns(header: readonly string[]): CallColumns | { missing: "caller" | "callee" | "time" } {
  const names = header.map(norm);
  const find = (alts: readonly string[]) => {
    const i = names.findIndex((n) => alts.includes(n));
    return i < 0 ? null : i;
  };
  const caller = find(NAMES.caller);
  if (caller === null) return { missing: "caller" };
  const callee = find(NAMES.callee);
  if (callee === null) return { missing: "callee" };
  const time = find(NAMES.time);
  if (time === null) return { missing: "time" };
  return { caller, callee, time, duration: find(NAMES.duration), header: header.map((h) => h.trim()) };
}

export interface CallRecord {
  /** 1-based line of the file the row is on (the header is line 1). */
  line: number;
  caller: string;
  callee: string;
  /** ISO-8601 when the time could be read, else null (the text keeps what was written). */
  at: string | null;
  timeText: string;
  durationSeconds: number | null;
  others: Array<[string, string]>;
}

/** "95", "1:35", "00:01:35", "95s" → seconds; null when unreadable. */
export function durationSeconds(raw: string): number | null {
  const t = raw.trim();
  if (/^\d+(?:\.\d+)?\s*s?$/i.test(t)) return Math.round(parseFloat(t));
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{2})$/.exec(t);
  if (m) return (m[1] ? +m[1] * 3600 : 0) + +m[2] * 60 + +m[3];
  return null;
}

/** ISO-8601, or "YYYY-MM-DD HH:MM[:SS]" read as UTC; null otherwise. */
export function callTime(raw: string): string | null {
  const t = raw.trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(t);
  if (!m) return null;
  const iso = `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? "00"}:${m[5] ?? "00"}:${m[6] ?? "00"}${m[7] ? (m[7] === "Z" ? "Z" : m[7].replace(/^([+-]\d{2})(\d{2})$/, "$1:$2")) : "Z"}`;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** One row → a call record; a row without both numbers is a problem to report (its line). */
export function callRecord(cols: CallColumns, row: readonly string[], line: number): CallRecord | { problem: string } {
  const cell = (i: number | null) => (i === null ? "" : (row[i] ?? "").trim());
  const caller = cell(cols.caller);
  const callee = cell(cols.callee);
  if (!/\d{3}/.test(caller) || !/\d{3}/.test(callee)) return { problem: `line ${line}: no caller or callee number` };
  const timeText = cell(cols.time);
  const used = new Set([cols.caller, cols.callee, cols.time, cols.duration]);
  const others: Array<[string, string]> = [];
  cols.header.forEach((h, i) => {
    const v = cell(i);
    if (!used.has(i) && v) others.push([h, v]);
  });
  const d = cols.duration === null ? "" : cell(cols.duration);
  return { line, caller, callee, at: callTime(timeText), timeText, durationSeconds: d ? durationSeconds(d) : null, others };
}

/** The evidence text of a call: plain sentences, so search, the answerer and the claim checks read it like prose. */
export function callRecordText(r: CallRecord): string {
  const when = r.at ?? r.timeText;
  const lasting = r.durationSeconds === null ? "" : ` lasting ${r.durationSeconds} seconds`;
  const extra = r.others.length ? ` ${r.others.map(([k, v]) => `${k}: ${v}`).join("; ")}.` : "";
  return `Call from ${r.caller} to ${r.callee} at ${when}${lasting}.${extra}`;
}

/** The node id a number without a node gets: "ph-" and its digits. */
export const phoneNodeId = (number: string) => `ph-${number.replace(/\D/g, "")}`;
