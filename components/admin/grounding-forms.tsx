"use client";
// Admin forms for the grounding controls (issue 15): revoking evidence and the tenant's kill switches; licensing an
// ingested document's evidence (issue 17).
import { Alert, Button, Field, Input } from "@/components/ui";
import { licenseDocumentAction, revokeEvidenceAction, setKillSwitchAction } from "@/app/(workbench)/admin/grounding-actions";
import { useAction } from "./use-action";

export function RevokeEvidenceForm({ cases }: { cases: string[] }) {
  const { run, busy, error, fields, data } = useAction(revokeEvidenceAction);
  return (
    <form
      method="post"
      noValidate
      className="grid gap-3 sm:grid-cols-2"
      data-testid="revoke-evidence-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        await run({
          caseId: String(f.get("caseId") ?? ""),
          evidenceId: String(f.get("evidenceId") ?? ""),
          reason: String(f.get("reason") ?? ""),
        });
      }}
    >
      <Field label="Case" htmlFor="revoke-case" error={fields.caseId}>
        <select id="revoke-case" name="caseId" className="w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm">
          {cases.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Evidence id" htmlFor="revoke-evidence" error={fields.evidenceId}>
        <Input id="revoke-evidence" name="evidenceId" placeholder="EV-…" />
      </Field>
      <Field label="Reason" htmlFor="revoke-reason" error={fields.reason} className="sm:col-span-2">
        <Input id="revoke-reason" name="reason" placeholder="withdrawn by the source, found unreliable, court order…" />
      </Field>
      <div className="sm:col-span-2">
        <Button type="submit" variant="danger" busy={busy}>
          Revoke
        </Button>
      </div>
      {error ? <Alert tone="error" title={error.message} code={error.code} className="sm:col-span-2" /> : null}
      {data ? (
        <Alert tone="success" title={`${data.evidenceId} revoked: it is no longer retrieved, shown or cited.`} className="sm:col-span-2" />
      ) : null}
    </form>
  );
}

export function KillSwitchForm({
  name,
  enabled,
  description,
}: {
  name: "DISABLE_ANSWER_REUSE" | "DISABLE_MODEL" | "DISABLE_EXPORTS";
  enabled: boolean;
  description: string;
}) {
  const { run, busy, error, data } = useAction(setKillSwitchAction);
  const on = data?.enabled ?? enabled;
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm" data-testid={`switch-${name}`} data-on={on}>
      <span className="min-w-64 flex-1">
        <span className="font-mono text-xs font-semibold">{name}</span> — {description}
      </span>
      <span className={on ? "font-semibold text-red-800" : "text-slate-600"}>{on ? "on" : "off"}</span>
      <Button size="sm" variant="secondary" busy={busy} onClick={() => run({ name, enabled: !on })}>
        {on ? "Switch off" : "Switch on"}
      </Button>
      {error ? <Alert tone="error" title={error.message} code={error.code} className="w-full" /> : null}
    </div>
  );
}

/** One unlicensed document: choose a license for the evidence made from it. */
export function LicenseDocumentForm({
  caseId,
  documentId,
  name,
  licenses,
}: {
  caseId: string;
  documentId: string;
  name: string;
  licenses: Array<{ id: string; name: string }>;
}) {
  const { run, busy, error, data } = useAction(licenseDocumentAction, { refresh: false });
  return (
    <form
      method="post"
      noValidate
      className="flex flex-wrap items-center gap-3 text-sm"
      data-testid={`license-document-${documentId}`}
      onSubmit={async (e) => {
        e.preventDefault();
        await run({ caseId, documentId, license: String(new FormData(e.currentTarget).get("license") ?? "") });
      }}
    >
      <span className="min-w-64 flex-1">
        <span className="font-medium">{name}</span>{" "}
        <span className="font-mono text-xs text-slate-500">
          {caseId} · {documentId}
        </span>
      </span>
      {data ? (
        <Alert
          tone="success"
          title={`Licensed ${data.license}: ${data.evidence} evidence item(s) now reach analysis as the license allows.`}
        />
      ) : (
        <>
          <label className="sr-only" htmlFor={`license-${documentId}`}>
            License for {name}
          </label>
          <select id={`license-${documentId}`} name="license" className="rounded-md border border-slate-300 px-2 py-1.5 text-sm">
            {licenses.map((l) => (
              <option key={l.id} value={l.id}>
                {l.id} — {l.name}
              </option>
            ))}
          </select>
          <Button type="submit" size="sm" busy={busy}>
            License
          </Button>
        </>
      )}
      {error ? <Alert tone="error" title={error.message} code={error.code} className="w-full" /> : null}
    </form>
  );
}
