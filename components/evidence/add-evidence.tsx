"use client";
// "Add evidence" (issue 17): drop or choose several files, set the batch's markings, and upload them one per request
// to POST /api/cases/{caseId}/documents (the session cookie; the server checks the permission, the Origin and every
// file again), with a progress bar per file and one for the batch. Each file's outcome is shown: its evidence items
// and links, a duplicate, or its coded refusal naming the file. Without a license the evidence stays invisible to
// analysis, and the panel says so before anything is sent.
import { useCallback, useId, useRef, useState, type DragEvent } from "react";
import { Button, ClassificationBadge, Field, Input, Select, SafeText, cn } from "@/components/ui";
import { CloseButton } from "@/components/ui/close-button";
import { ProposalsList } from "./proposals";

export interface IngestOptions {
  caseClassification: string;
  licenses: Array<{ id: string; name: string; analysis: boolean }>;
}

type FileState =
  | { status: "queued" | "uploading"; loaded: number; total: number }
  | { status: "done"; loaded: number; total: number; summary: string; warnings: string[] }
  | { status: "failed"; loaded: number; total: number; code: string; message: string };

interface Row {
  key: string;
  file: File;
  state: FileState;
  /** This file's own markings over the batch's (blank: the batch's). */
  own: { classification: string; needToKnow: string };
}

const CLASSIFICATIONS = ["PUBLIC", "CUI", "CONFIDENTIAL", "SECRET", "TOP_SECRET", "TS_SCI"];
const ACCEPT = ".pdf,.docx,.html,.htm,.md,.markdown,.txt,.eml,.csv";

interface UploadedFile {
  file: string;
  ok: boolean;
  evidence?: number;
  links?: number;
  nodes?: number;
  duplicateOf?: string;
  warnings?: string[];
  proposals?: { proposed: number; rejected: number };
  error?: { code: string; message: string };
}

/** One file, one request: XMLHttpRequest, because fetch cannot report upload progress. */
function send(url: string, form: FormData, onProgress: (loaded: number, total: number) => void): Promise<{ status: number; body: any }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.total);
    xhr.onload = () => resolve({ status: xhr.status, body: xhr.response });
    xhr.onerror = () => resolve({ status: 0, body: { error: { code: "CG-SYS-001", message: "The upload did not reach the server." } } });
    xhr.send(form);
  });
}

function summaryOf(f: UploadedFile): string {
  if (f.duplicateOf) return `Already in the case as “${f.duplicateOf}”: nothing new stored.`;
  const parts = [
    `${f.evidence ?? 0} evidence item${f.evidence === 1 ? "" : "s"}`,
    `${f.links ?? 0} link${f.links === 1 ? "" : "s"} to nodes`,
  ];
  if (f.nodes) parts.push(`${f.nodes} new node${f.nodes === 1 ? "" : "s"}`);
  if (f.proposals?.proposed) parts.push(`${f.proposals.proposed} graph proposal${f.proposals.proposed === 1 ? "" : "s"} to review below`);
  return parts.join(", ");
}

export function AddEvidencePanel({
  caseId,
  options,
  onClose,
  onIngested,
}: {
  caseId: string;
  options: IngestOptions;
  onClose: () => void;
  onIngested: () => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [rows, setRows] = useState<Row[]>([]);
  const [over, setOver] = useState(false);
  const [busy, setBusy] = useState(false);
  const [uploads, setUploads] = useState(0);
  const [markings, setMarkings] = useState({
    classification: "",
    needToKnow: "",
    license: "",
    sourceSystem: "",
    collectedAt: "",
    type: "",
  });
  const unlicensed = !markings.license || !options.licenses.find((l) => l.id === markings.license)?.analysis;

  const add = useCallback((files: FileList | File[]) => {
    const list = Array.from(files);
    setRows((prev) => [
      ...prev,
      ...list.map((file, i) => ({
        key: `${Date.now()}-${prev.length + i}-${file.name}`,
        file,
        state: { status: "queued", loaded: 0, total: file.size } as FileState,
        own: { classification: "", needToKnow: "" },
      })),
    ]);
  }, []);
  const update = (key: string, state: FileState) => setRows((prev) => prev.map((r) => (r.key === key ? { ...r, state } : r)));
  const setOwn = (key: string, own: Partial<Row["own"]>) =>
    setRows((prev) => prev.map((r) => (r.key === key ? { ...r, own: { ...r.own, ...own } } : r)));

  async function upload() {
    setBusy(true);
    let any = false;
    for (const row of rows.filter((r) => r.state.status === "queued")) {
      const form = new FormData();
      form.append("file", row.file);
      for (const [k, v] of Object.entries(markings))
        if (v.trim()) form.append(k, k === "collectedAt" ? new Date(v).toISOString() : v.trim());
      update(row.key, { status: "uploading", loaded: 0, total: row.file.size });
      const { status, body } = await send(`/api/cases/${encodeURIComponent(caseId)}/documents`, form, (loaded, total) =>
        update(row.key, { status: "uploading", loaded, total }),
      );
      const files: UploadedFile[] = body?.files ?? [];
      const mine = files[0];
      if (mine?.ok) {
        any = true;
        const extra = files
          .slice(1)
          .map((f) => (f.ok ? `attachment ${f.file}: ${summaryOf(f)}` : `attachment ${f.file}: ${f.error?.code} ${f.error?.message}`));
        update(row.key, {
          status: "done",
          loaded: row.file.size,
          total: row.file.size,
          summary: summaryOf(mine),
          warnings: [...(mine.warnings ?? []), ...extra],
        });
      } else {
        const error = mine?.error ?? body?.error ?? { code: `HTTP ${status}`, message: "The upload failed." };
        update(row.key, { status: "failed", loaded: row.file.size, total: row.file.size, code: error.code, message: error.message });
      }
    }
    setBusy(false);
    setUploads((n) => n + 1);
    if (any) onIngested();
  }

  const total = rows.reduce((n, r) => n + r.file.size, 0);
  const loaded = rows.reduce((n, r) => n + (r.state.status === "queued" ? 0 : Math.min(r.state.loaded, r.file.size)), 0);
  const finished = rows.filter((r) => r.state.status === "done" || r.state.status === "failed").length;
  const queued = rows.filter((r) => r.state.status === "queued").length;
  const set = (k: keyof typeof markings) => (e: { target: { value: string } }) => setMarkings((m) => ({ ...m, [k]: e.target.value }));

  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      className="fixed inset-0 z-40 flex items-start justify-center bg-slate-900/40 p-6"
      data-testid="add-evidence"
    >
      <div className="max-h-full w-full max-w-3xl overflow-y-auto rounded-lg bg-white shadow-xl">
        <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
          <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900">
            Add evidence
          </h2>
          <CloseButton label="Close" onClick={onClose} />
        </div>
        <div className="space-y-4 p-4">
          <div
            onDragOver={(e: DragEvent) => {
              e.preventDefault();
              setOver(true);
            }}
            onDragLeave={() => setOver(false)}
            onDrop={(e: DragEvent) => {
              e.preventDefault();
              setOver(false);
              if (e.dataTransfer.files.length) add(e.dataTransfer.files);
            }}
            className={cn(
              "flex flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed p-6 text-center text-sm",
              over ? "border-blue-600 bg-blue-50" : "border-slate-300 bg-slate-50",
            )}
            data-testid="drop-zone"
          >
            <p className="text-slate-800">Drop files here: PDF, DOCX, HTML, Markdown, text, e-mail (.eml) or call records (CSV).</p>
            <Button variant="secondary" size="sm" onClick={() => input.current?.click()}>
              Choose files…
            </Button>
            <input
              ref={input}
              type="file"
              multiple
              accept={ACCEPT}
              className="sr-only"
              data-testid="file-input"
              onChange={(e) => {
                if (e.target.files?.length) add(e.target.files);
                e.target.value = "";
              }}
            />
          </div>

          <fieldset className="grid grid-cols-2 gap-3" disabled={busy}>
            <legend className="col-span-2 mb-1 text-sm font-semibold text-slate-900">Markings for these files</legend>
            <Field
              label="Classification"
              htmlFor={`${id}-c`}
              hint={
                <>
                  Default: the case’s, <ClassificationBadge classification={options.caseClassification} />
                </>
              }
            >
              <Select id={`${id}-c`} value={markings.classification} onChange={set("classification")}>
                <option value="">The case’s classification</option>
                {CLASSIFICATIONS.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Need-to-know tags" htmlFor={`${id}-n`} hint="Comma-separated; none: no restriction beyond the classification">
              <Input id={`${id}-n`} value={markings.needToKnow} onChange={set("needToKnow")} placeholder="narcotics, homicide" />
            </Field>
            <Field label="License" htmlFor={`${id}-l`}>
              <Select id={`${id}-l`} value={markings.license} onChange={set("license")} data-testid="license-select">
                <option value="">No license (not visible to analysis)</option>
                {options.licenses.map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.name} ({l.id})
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Source system" htmlFor={`${id}-s`} hint="Default: upload">
              <Input id={`${id}-s`} value={markings.sourceSystem} onChange={set("sourceSystem")} />
            </Field>
            <Field label="Collected at" htmlFor={`${id}-t`} hint="Default: now">
              <Input id={`${id}-t`} type="datetime-local" value={markings.collectedAt} onChange={set("collectedAt")} />
            </Field>
            <Field label="Evidence type" htmlFor={`${id}-y`} hint="Default: document, email or call_record by format">
              <Input id={`${id}-y`} value={markings.type} onChange={set("type")} placeholder="lab_report" />
            </Field>
          </fieldset>
          {unlicensed ? (
            <p
              role="note"
              className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
              data-testid="unlicensed-note"
            >
              Without a license that allows analysis, this evidence is stored but stays invisible to analysis: no answer, citation or
              evidence panel will show it until it is licensed.
            </p>
          ) : null}

          {rows.length ? (
            <div className="space-y-2">
              <div>
                <div className="flex justify-between text-xs text-slate-700">
                  <span>
                    Batch: {finished} of {rows.length} file{rows.length === 1 ? "" : "s"} done
                  </span>
                  <span>{total ? Math.round((loaded / total) * 100) : 0}%</span>
                </div>
                <progress className="h-2 w-full" max={total || 1} value={loaded} aria-label="Batch progress" data-testid="batch-progress" />
              </div>
              <ul className="divide-y divide-slate-100 rounded-md border border-slate-200" data-testid="upload-list">
                {rows.map((r) => (
                  <li
                    key={r.key}
                    className="space-y-1 px-3 py-2 text-sm"
                    data-testid="upload-row"
                    data-status={r.state.status}
                    data-file={r.file.name}
                  >
                    <div className="flex items-center justify-between gap-2">
                      <span className="truncate font-medium text-slate-900">
                        <SafeText text={r.file.name} />
                      </span>
                      <span className="shrink-0 text-xs text-slate-600">
                        {r.state.status === "queued"
                          ? "waiting"
                          : r.state.status === "uploading"
                            ? `${Math.round((r.state.loaded / (r.state.total || 1)) * 100)}%`
                            : r.state.status === "done"
                              ? "added"
                              : "refused"}
                      </span>
                    </div>
                    <progress
                      className="h-1.5 w-full"
                      max={r.state.total || 1}
                      value={r.state.loaded}
                      aria-label={`Progress of ${r.file.name}`}
                    />
                    {r.state.status === "queued" ? (
                      <details className="text-xs text-slate-700">
                        <summary className="cursor-pointer">Markings for this file only</summary>
                        <span className="mt-1 flex gap-2">
                          <Select
                            aria-label={`Classification of ${r.file.name}`}
                            value={r.own.classification}
                            onChange={(e) => setOwn(r.key, { classification: e.target.value })}
                          >
                            <option value="">As the batch</option>
                            {CLASSIFICATIONS.map((c) => (
                              <option key={c} value={c}>
                                {c}
                              </option>
                            ))}
                          </Select>
                          <Input
                            aria-label={`Need-to-know tags of ${r.file.name}`}
                            placeholder="need-to-know, as the batch"
                            value={r.own.needToKnow}
                            onChange={(e) => setOwn(r.key, { needToKnow: e.target.value })}
                          />
                        </span>
                      </details>
                    ) : null}
                    {r.state.status === "done" ? (
                      <p className="text-xs text-green-800">
                        {r.state.summary}
                        {r.state.warnings.map((w) => (
                          <span key={w} className="block text-amber-800">
                            <SafeText text={w} />
                          </span>
                        ))}
                      </p>
                    ) : r.state.status === "failed" ? (
                      <p className="text-xs text-red-800" role="alert">
                        <span className="font-mono">{r.state.code}</span> <SafeText text={r.state.message} />
                      </p>
                    ) : null}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}

          <ProposalsList caseId={caseId} refreshKey={uploads} onAccepted={onIngested} />

          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
            <Button onClick={() => void upload()} busy={busy} disabled={!queued} data-testid="upload-button">
              Upload {queued ? `${queued} file${queued === 1 ? "" : "s"}` : ""}
            </Button>
          </div>
        </div>
      </div>
    </div>
  );
}
