"use client";
// Export a range of this tenant's entries: the deterministic compliance artifact (JSON: entries, signed checkpoint,
// an inclusion proof per entry, prompt versions, kill-switch records) or CSV. The export is itself a ledger entry.
import { useState } from "react";
import { Alert, Button, Checkbox, Input, Select } from "@/components/ui";
import { exportAuditAction } from "@/app/(workbench)/audit/actions";
import { useAction } from "@/components/admin/use-action";

export function ExportPanel({ defaultFrom, defaultTo }: { defaultFrom: number; defaultTo: number }) {
  const { run, busy, error, data } = useAction(exportAuditAction);
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <form
      method="post"
      className="flex flex-wrap items-end gap-3"
      data-testid="export-panel"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const result = await run({
          fromSeq: Number(f.get("fromSeq")),
          toSeq: Number(f.get("toSeq")),
          format: String(f.get("format")) as "json" | "csv",
          includeQuestionText: f.get("questionText") === "1",
        });
        if (result.ok) {
          const blob = new Blob([result.data.text], { type: result.data.mime });
          const url = URL.createObjectURL(blob);
          const a = document.createElement("a");
          a.href = url;
          a.download = result.data.filename;
          document.body.appendChild(a);
          a.click();
          a.remove();
          setTimeout(() => URL.revokeObjectURL(url), 10_000);
          setSaved(result.data.filename);
        }
      }}
    >
      <div>
        <label htmlFor="x-from" className="block text-xs font-medium text-slate-600">
          From seq
        </label>
        <Input id="x-from" name="fromSeq" type="number" min={1} defaultValue={defaultFrom} className="w-28" />
      </div>
      <div>
        <label htmlFor="x-to" className="block text-xs font-medium text-slate-600">
          To seq
        </label>
        <Input id="x-to" name="toSeq" type="number" min={1} defaultValue={defaultTo} className="w-28" />
      </div>
      <div>
        <label htmlFor="x-format" className="block text-xs font-medium text-slate-600">
          Format
        </label>
        <Select id="x-format" name="format" defaultValue="json" className="w-56">
          <option value="json">Compliance artifact (JSON)</option>
          <option value="csv">Spreadsheet (CSV)</option>
        </Select>
      </div>
      <Checkbox name="questionText" value="1" defaultChecked label="Include stored question text" />
      <Button type="submit" busy={busy} data-testid="export-button">
        Export
      </Button>
      {error ? <Alert tone="error" title={error.message} code={error.code} className="w-full" /> : null}
      {data && saved ? (
        <Alert tone="success" title={`Exported ${data.entryCount} entries to ${saved}`} className="w-full">
          <span data-testid="export-result">
            SHA-256 <span className="font-mono text-xs">{data.sha256}</span>; recorded in the ledger as entry #{data.recordedSeq}.
          </span>
        </Alert>
      ) : null}
    </form>
  );
}
