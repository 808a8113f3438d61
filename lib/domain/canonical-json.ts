// Canonical JSON: object keys sorted, no whitespace, so equal data hashes and diffs equally (ledger, exports).

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** Pretty canonical form for files people read (exports); still byte-stable. */
export function canonicalJsonPretty(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2) + "\n";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number" && !Number.isFinite(value)) return null;
  return value;
}
