"use client";
// The admin's playbook forms (issue 16): add or edit one of the tenant's playbooks, retire or bring one back, the
// tenant's risk tolerance, a case's labels. The server checks everything again (lib/admin/playbooks.ts).
import { useRef } from "react";
import { Alert, Button, Checkbox, Field, Input, Select } from "@/components/ui";
import { CLASSIFICATIONS } from "@/lib/domain/markings";
import { AUTHORITIES, LEGAL_AUTHORITIES, RISK_LEVELS } from "@/lib/playbooks/catalogue";
import {
  savePlaybookAction,
  setCaseLabelsAction,
  setLegalAuthorityAction,
  setPlaybookActiveAction,
  setRiskToleranceAction,
} from "@/app/(workbench)/admin/playbooks/actions";
import { checkedValues, fieldText, useAction } from "./use-action";

export interface PlaybookFormValue {
  id: string;
  version: string;
  description: string;
  caseTypes: string[];
  jurisdictions: string[];
  requiredAuthority: string;
  minClearance: string;
  riskLevel: string;
  needToKnow: string[];
  active: boolean;
}

const list = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

const AUTHORITY_LABEL: Record<string, string> = {
  none: "none",
  supervisor_approval: "supervisor approval",
  subpoena: "subpoena",
  warrant: "warrant",
  court_order: "court order",
};

export function PlaybookForm({ playbook }: { playbook?: PlaybookFormValue }) {
  const formRef = useRef<HTMLFormElement>(null);
  const { run, busy, error, fields, data } = useAction(savePlaybookAction);
  const p = playbook ? `pb-${playbook.id}` : "pb-new";
  return (
    <form
      method="post"
      ref={formRef}
      noValidate
      className="grid gap-3 sm:grid-cols-3"
      data-testid={playbook ? `playbook-form-${playbook.id}` : "playbook-form-new"}
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const r = await run({
          id: playbook?.id ?? fieldText(f, "id"),
          version: fieldText(f, "version"),
          description: fieldText(f, "description"),
          caseTypes: list(fieldText(f, "caseTypes")),
          jurisdictions: list(fieldText(f, "jurisdictions")),
          requiredAuthority: fieldText(f, "requiredAuthority"),
          minClearance: fieldText(f, "minClearance"),
          riskLevel: fieldText(f, "riskLevel"),
          needToKnow: list(fieldText(f, "needToKnow")),
          active: playbook?.active ?? true,
        });
        if (r.ok && !playbook) formRef.current?.reset();
      }}
    >
      {error ? <Alert tone="error" title={error.message} code={error.code} className="sm:col-span-3" /> : null}
      {data ? <Alert tone="success" title={playbook ? "Saved." : `Added ${data.id}.`} className="sm:col-span-3" /> : null}
      {playbook ? null : (
        <Field label="Playbook id" htmlFor={`${p}-id`} error={fields.id}>
          <Input id={`${p}-id`} name="id" autoComplete="off" aria-invalid={!!fields.id} />
        </Field>
      )}
      <Field label="Version" htmlFor={`${p}-version`} error={fields.version}>
        <Input id={`${p}-version`} name="version" defaultValue={playbook?.version ?? "1.0"} aria-invalid={!!fields.version} />
      </Field>
      <Field
        label="Description (what it does, in plain words)"
        htmlFor={`${p}-description`}
        error={fields.description}
        className="sm:col-span-3"
      >
        <Input id={`${p}-description`} name="description" defaultValue={playbook?.description} aria-invalid={!!fields.description} />
      </Field>
      <Field label="Case types (comma-separated; empty: any)" htmlFor={`${p}-caseTypes`} error={fields.caseTypes}>
        <Input id={`${p}-caseTypes`} name="caseTypes" defaultValue={playbook?.caseTypes.join(", ")} />
      </Field>
      <Field label="Jurisdictions (comma-separated; empty: any)" htmlFor={`${p}-jurisdictions`} error={fields.jurisdictions}>
        <Input id={`${p}-jurisdictions`} name="jurisdictions" defaultValue={playbook?.jurisdictions.join(", ")} />
      </Field>
      <Field label="Need-to-know (comma-separated; empty: none)" htmlFor={`${p}-needToKnow`} error={fields.needToKnow}>
        <Input id={`${p}-needToKnow`} name="needToKnow" defaultValue={playbook?.needToKnow.join(", ")} />
      </Field>
      <SelectField
        label="Required authority"
        id={`${p}-authority`}
        name="requiredAuthority"
        value={playbook?.requiredAuthority ?? "none"}
        options={AUTHORITIES}
        error={fields.requiredAuthority}
        text={(a) => AUTHORITY_LABEL[a]}
      />
      <SelectField
        label="Minimum clearance"
        id={`${p}-clearance`}
        name="minClearance"
        value={playbook?.minClearance ?? "CUI"}
        options={CLASSIFICATIONS}
        error={fields.minClearance}
      />
      <SelectField
        label="Risk level"
        id={`${p}-risk`}
        name="riskLevel"
        value={playbook?.riskLevel ?? "low"}
        options={RISK_LEVELS}
        error={fields.riskLevel}
      />
      <div className="sm:col-span-3">
        <Button type="submit" variant={playbook ? "secondary" : "primary"} busy={busy}>
          {playbook ? "Save" : "Add playbook"}
        </Button>
      </div>
    </form>
  );
}

function SelectField({
  label,
  id,
  name,
  value,
  options,
  error,
  hint,
  text = (o) => o,
}: {
  label: string;
  id: string;
  name: string;
  value: string;
  options: readonly string[];
  error?: string;
  hint?: string;
  text?: (option: string) => string;
}) {
  return (
    <Field label={label} htmlFor={id} error={error} hint={hint}>
      <Select id={id} name={name} defaultValue={value}>
        {options.map((o) => (
          <option key={o} value={o}>
            {text(o)}
          </option>
        ))}
      </Select>
    </Field>
  );
}

export function PlaybookActiveButton({ id, active }: { id: string; active: boolean }) {
  const { run, busy, error } = useAction(setPlaybookActiveAction);
  return (
    <span className="inline-flex items-center gap-2">
      <Button type="button" size="sm" variant={active ? "danger" : "secondary"} busy={busy} onClick={() => run({ id, active: !active })}>
        {active ? "Retire" : "Bring back"}
      </Button>
      {error ? <span className="text-xs text-red-700">{error.message}</span> : null}
    </span>
  );
}

export function RiskToleranceForm({ value }: { value: string }) {
  const { run, busy, error, data } = useAction(setRiskToleranceAction);
  return (
    <form
      method="post"
      noValidate
      className="flex flex-wrap items-end gap-3"
      onSubmit={async (e) => {
        e.preventDefault();
        await run({ riskTolerance: fieldText(new FormData(e.currentTarget), "riskTolerance") as "low" });
      }}
    >
      <SelectField
        label="Risk tolerance"
        id="risk-tolerance"
        name="riskTolerance"
        value={value}
        options={RISK_LEVELS}
        hint="Playbooks of a higher risk level are never suggested."
      />
      <Button type="submit" busy={busy}>
        Save
      </Button>
      {error ? <Alert tone="error" title={error.message} code={error.code} className="w-full" /> : null}
      {data ? <Alert tone="success" title={`Risk tolerance: ${data.riskTolerance}.`} className="w-full" /> : null}
    </form>
  );
}

export function CaseLabelsForm({ cases }: { cases: Array<{ id: string; caseType: string | null; jurisdiction: string | null }> }) {
  const { run, busy, error, data } = useAction(setCaseLabelsAction);
  return (
    <form
      method="post"
      noValidate
      className="grid gap-3 sm:grid-cols-4"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        await run({ caseId: fieldText(f, "caseId"), caseType: fieldText(f, "caseType"), jurisdiction: fieldText(f, "jurisdiction") });
      }}
    >
      <Field label="Case" htmlFor="labels-case">
        <Select id="labels-case" name="caseId">
          {cases.map((c) => (
            <option key={c.id} value={c.id}>
              {c.id} ({c.caseType ?? "no type"}, {c.jurisdiction ?? "no jurisdiction"})
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Case type" htmlFor="labels-type">
        <Input id="labels-type" name="caseType" />
      </Field>
      <Field label="Jurisdiction" htmlFor="labels-jurisdiction">
        <Input id="labels-jurisdiction" name="jurisdiction" />
      </Field>
      <div className="flex items-end">
        <Button type="submit" busy={busy}>
          Set labels
        </Button>
      </div>
      {error ? <Alert tone="error" title={error.message} code={error.code} className="sm:col-span-4" /> : null}
      {data ? <Alert tone="success" title="Labels saved." className="sm:col-span-4" /> : null}
    </form>
  );
}

/** The legal process a user may invoke: what playbooks needing a subpoena, a warrant or a court order require. */
export function LegalAuthorityForm({ userId, value, self }: { userId: string; value: string[]; self: boolean }) {
  const { run, busy, error, data } = useAction(setLegalAuthorityAction);
  return (
    <form
      method="post"
      noValidate
      className="space-y-3"
      onSubmit={async (e) => {
        e.preventDefault();
        await run({ userId, legalAuthority: checkedValues(new FormData(e.currentTarget), "legalAuthority") as never });
      }}
    >
      <div className="flex flex-wrap gap-4">
        {LEGAL_AUTHORITIES.map((a) => (
          <Checkbox key={a} name="legalAuthority" value={a} label={AUTHORITY_LABEL[a]} defaultChecked={value.includes(a)} disabled={self} />
        ))}
      </div>
      <Button type="submit" variant="secondary" busy={busy} disabled={self}>
        Save
      </Button>
      {error ? <Alert tone="error" title={error.message} code={error.code} /> : null}
      {data ? <Alert tone="success" title="Saved." /> : null}
    </form>
  );
}
