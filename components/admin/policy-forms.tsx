"use client";
// Answer-policy administration: the tenant's bundles (conflicts in plain words, which is active, activate and
// deactivate) and the policy editor — JSON lines checked as you type with line-numbered errors (the same parser the
// server compiles with), a form that appends one policy, and an upload of policies.jsonl.
import { useMemo, useState } from "react";
import { activateBundleAction, compilePoliciesAction, deactivateBundleAction } from "@/app/(workbench)/admin/policies/actions";
import type { BundleView } from "@/lib/domain/policy-views";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { parsePoliciesJsonl, PRIORITY_LATTICE } from "@/lib/policy/schema";
import { ANSWER_FACTS, REQUEST_FACTS } from "@/lib/policy/vocabulary";
import { Alert, Badge, Button, ConfirmButton, Field, Input, Select, Textarea } from "@/components/ui";
import { useAction } from "./use-action";

export function BundleList({ bundles }: { bundles: BundleView[] }) {
  const activate = useAction(activateBundleAction);
  const deactivate = useAction(deactivateBundleAction);
  if (!bundles.length) return <p className="text-sm text-slate-600">No bundles yet: compile policies below.</p>;
  return (
    <div className="space-y-4">
      {activate.error ? <Alert tone="error" title={activate.error.message} code={activate.error.code} /> : null}
      {deactivate.error ? <Alert tone="error" title={deactivate.error.message} code={deactivate.error.code} /> : null}
      <ul className="space-y-3">
        {bundles.map((b) => (
          <li key={b.sha256} className="rounded-md border border-slate-200 p-3" data-testid={`bundle-${b.sha256.slice(0, 12)}`}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <div className="text-sm">
                <span className="font-mono text-xs">{b.sha256.slice(0, 16)}…</span> {b.active ? <Badge tone="green">active</Badge> : null}{" "}
                <span className="text-slate-600">
                  {b.policyCount} policies, {b.ruleCount} rules, {b.conflictCount} conflict(s) · {b.createdBy} ·{" "}
                  {b.createdAt.slice(0, 16).replace("T", " ")} UTC
                </span>
              </div>
              {b.active ? (
                <ConfirmButton
                  title="Stop enforcing answer policies?"
                  description="Answers will no longer be checked against any answer policy."
                  confirmLabel="Deactivate"
                  onConfirm={async () => void (await deactivate.run({}))}
                  testId="deactivate-bundle"
                >
                  Deactivate
                </ConfirmButton>
              ) : (
                <Button
                  size="sm"
                  variant="secondary"
                  busy={activate.busy}
                  onClick={() => activate.run({ sha256: b.sha256 })}
                  data-testid="activate-bundle"
                >
                  Activate
                </Button>
              )}
            </div>
            <p className="mt-1 text-xs text-slate-500">{b.policyIds.join(", ")}</p>
            {b.conflicts.length ? (
              <ul className="mt-2 space-y-1 text-sm">
                {b.conflicts.map((c) => (
                  <li key={`${c.policies.join("|")}|${c.action}`} className="rounded bg-amber-50 px-2 py-1 text-amber-950">
                    {c.sentence} <span className="font-medium">{c.resolution}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-2 text-sm text-slate-600">No conflicts: no two rules can fire together with opposite actions.</p>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The editor's own check: the same parser as the server (schema, line numbers); compile adds the vocabulary and Z3. */
function problemsOf(text: string): Array<{ path?: string; message: string }> {
  if (!text.trim()) return [];
  try {
    parsePoliciesJsonl(text);
    return [];
  } catch (err) {
    return err instanceof CasegraphError ? err.issues : [{ message: String(err) }];
  }
}

const VARIABLES = [
  ...REQUEST_FACTS,
  ...Object.keys(ANSWER_FACTS),
  "names_protected_informant",
  "names_protected_juvenile",
  "names_protected_victim_contact",
];
const ACTIONS = [
  ...Object.keys(ANSWER_FACTS).filter((k) => ANSWER_FACTS[k]!.type === "bool"),
  "names_protected_informant",
  "names_protected_juvenile",
  "names_protected_victim_contact",
];

export function PolicyEditor({ initialText }: { initialText: string }) {
  const [text, setText] = useState(initialText);
  const problems = useMemo(() => problemsOf(text), [text]);
  const compile = useAction(compilePoliciesAction);
  const lines = text.split("\n").length;
  return (
    <div className="space-y-4">
      <AddPolicyForm onAdd={(line) => setText((t) => (t.trim() ? `${t.replace(/\s+$/, "")}\n${line}\n` : `${line}\n`))} />
      <div>
        <label htmlFor="policies-jsonl" className="mb-1 block text-sm font-medium">
          policies.jsonl
        </label>
        <div className="flex rounded-md border border-slate-300 font-mono text-xs">
          <pre aria-hidden className="select-none border-r border-slate-200 bg-slate-50 px-2 py-2 text-right text-slate-400">
            {Array.from({ length: lines }, (_, i) => i + 1).join("\n")}
          </pre>
          <Textarea
            id="policies-jsonl"
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={Math.min(24, Math.max(8, lines + 1))}
            wrap="off"
            spellCheck={false}
            className="rounded-none border-0 font-mono text-xs shadow-none"
            aria-invalid={problems.length > 0}
            aria-describedby="policy-problems"
            data-testid="policy-editor"
          />
        </div>
      </div>
      <div id="policy-problems" aria-live="polite">
        {problems.length ? (
          <Alert tone="error" title={`${problems.length} problem(s)`}>
            <ul className="list-disc pl-5 font-mono text-xs">
              {problems.slice(0, 20).map((p, i) => (
                <li key={i}>
                  {p.path ? `${p.path}: ` : ""}
                  {p.message}
                </li>
              ))}
            </ul>
          </Alert>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          busy={compile.busy}
          disabled={!text.trim() || problems.length > 0}
          onClick={() => compile.run({ text })}
          data-testid="compile-policies"
        >
          Compile and store
        </Button>
        <label className="text-sm text-slate-700">
          Upload policies.jsonl{" "}
          <input
            type="file"
            accept=".jsonl,.json,.txt,application/json,text/plain"
            className="text-sm"
            data-testid="upload-policies"
            onChange={async (e) => {
              const f = e.currentTarget.files?.[0];
              if (f) setText(await f.text());
            }}
          />
        </label>
      </div>
      {compile.error ? <Alert tone="error" title={compile.error.message} code={compile.error.code} /> : null}
      {compile.data ? (
        <Alert
          tone="success"
          title={`Compiled: ${compile.data.policyCount} policies, ${compile.data.ruleCount} rules, ${compile.data.conflicts.length} conflict(s). Activate it above.`}
        >
          <span className="font-mono text-xs">{compile.data.bundleSha256}</span>
        </Alert>
      ) : null}
    </div>
  );
}

function AddPolicyForm({ onAdd }: { onAdd: (line: string) => void }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      method="post"
      noValidate
      className="grid gap-3 rounded-md border border-slate-200 p-3 md:grid-cols-3"
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const get = (k: string) => String(f.get(k) ?? "").trim();
        const conditions: unknown[] = [];
        const param = get("parameter");
        if (param) {
          const kind = get("ctype");
          const value = get("cvalue");
          if (kind === "boolean_flag") conditions.push({ type: kind, parameter: param, value: value !== "false" });
          else if (kind === "enum")
            conditions.push({
              type: kind,
              parameter: param,
              operator: get("coperator") === "not_in" ? "not_in" : "in",
              values: value
                .split(",")
                .map((v) => v.trim())
                .filter(Boolean),
            });
          else
            conditions.push({
              type: kind,
              parameter: param,
              operator: get("coperator"),
              value: Number(value),
              ...(kind === "time_window" ? { unit: "days" } : {}),
            });
        }
        const policy = {
          policy_id: get("policy_id"),
          conditions,
          actions: [{ type: get("atype"), action: get("action") }],
          metadata: {
            source: get("source"),
            domain: get("domain") || "general",
            priority: get("priority"),
            owner: get("owner"),
            regulatory_linkage: [],
          },
        };
        const line = JSON.stringify(policy);
        const problems = problemsOf(line);
        if (problems.length) return setError(problems.map((p) => `${p.path?.replace(/^line 1: /, "") ?? ""} ${p.message}`).join("; "));
        setError(null);
        onAdd(line);
      }}
    >
      <p className="text-sm font-medium md:col-span-3">Add a policy</p>
      <Field label="Policy id" htmlFor="p-id">
        <Input id="p-id" name="policy_id" placeholder="MPD-NEW-001" />
      </Field>
      <Field label="Domain" htmlFor="p-domain">
        <Input id="p-domain" name="domain" placeholder="general" />
      </Field>
      <Field label="Priority" htmlFor="p-priority">
        <Select id="p-priority" name="priority" defaultValue="agency">
          {Object.keys(PRIORITY_LATTICE).map((p) => (
            <option key={p}>{p}</option>
          ))}
        </Select>
      </Field>
      <Field label="Owner" htmlFor="p-owner">
        <Input id="p-owner" name="owner" />
      </Field>
      <Field label="Source document" htmlFor="p-source">
        <Input id="p-source" name="source" />
      </Field>
      <Field label="The answer…" htmlFor="p-action">
        <div className="flex gap-2">
          <Select id="p-atype" name="atype" aria-label="must or must not" defaultValue="prohibited">
            <option value="prohibited">must not</option>
            <option value="required">must</option>
          </Select>
          <Select id="p-action" name="action">
            {ACTIONS.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </Select>
        </div>
      </Field>
      <Field label="Only when (optional)" htmlFor="p-param" className="md:col-span-3">
        <div className="flex flex-wrap gap-2">
          <Select id="p-param" name="parameter" defaultValue="" className="w-auto">
            <option value="">always</option>
            {VARIABLES.map((v) => (
              <option key={v}>{v}</option>
            ))}
          </Select>
          <Select name="ctype" aria-label="condition type" defaultValue="enum" className="w-auto">
            <option value="enum">enum</option>
            <option value="boolean_flag">flag</option>
            <option value="time_window">time window (days)</option>
            <option value="amount_threshold">amount</option>
          </Select>
          <Select name="coperator" aria-label="operator" defaultValue="in" className="w-auto">
            {["in", "not_in", "<", "<=", "==", "!=", ">=", ">"].map((o) => (
              <option key={o}>{o}</option>
            ))}
          </Select>
          <Input name="cvalue" aria-label="value" placeholder="investigator  |  true  |  30" className="w-56" />
        </div>
      </Field>
      <div className="md:col-span-3">
        <Button type="submit" variant="secondary" size="sm">
          Add line
        </Button>
        {error ? (
          <Alert tone="error" title="Not a valid policy" className="mt-2">
            {error}
          </Alert>
        ) : null}
      </div>
    </form>
  );
}
