/** A coded error's issues as one message per top-level field ("tags.2" → "tags"); issues without a path go to "_form". */
export function fieldErrors(issues: Array<{ path?: string; message: string }> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues ?? []) {
    const key = (i.path ?? "").split(".")[0] || "_form";
    out[key] ??= i.message;
  }
  return out;
}
