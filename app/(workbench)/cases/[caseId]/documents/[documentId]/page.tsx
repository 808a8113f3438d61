// The document a citation opens (issue 17): an ingested document at the cited page with the cited passage marked —
// PDF pages rendered in the browser, text documents with the passage marked in their regular text, call records with
// their line. Members of the case only, and only when the document's markings let them see its evidence.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageActor } from "@/lib/auth/current";
import { CasegraphError } from "@/lib/domain/failure-codes";
import type { DocumentView } from "@/lib/domain/workbench-views";
import { documentViewer } from "@/lib/server/ingest/documents";
import { ClassificationBanner, SafeText } from "@/components/ui";
import { PdfViewer } from "@/components/evidence/pdf-viewer";
import { ScrollToCited } from "@/components/evidence/scroll-to-cited";
import { formatDateTime } from "@/components/answer/format";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Document · Casegraph" };

export default async function DocumentPage({
  params,
  searchParams,
}: {
  params: Promise<{ caseId: string; documentId: string }>;
  searchParams: Promise<{ evidence?: string | string[] }>;
}) {
  const { caseId: rawCase, documentId: rawDoc } = await params;
  const caseId = decodeURIComponent(rawCase);
  const documentId = decodeURIComponent(rawDoc);
  const evidence = (await searchParams).evidence;
  const actor = await requirePageActor({ roles: ["investigator", "supervisor"], from: `/cases/${rawCase}/documents/${rawDoc}` });
  let view: DocumentView;
  try {
    view = await documentViewer(actor, caseId, documentId, typeof evidence === "string" ? evidence : null);
  } catch (err) {
    if (err instanceof CasegraphError && (err.code === "CG-ACCESS-001" || err.code === "CG-INGEST-014")) notFound();
    throw err;
  }
  const p = view.passage;
  return (
    <main className="mx-auto max-w-5xl space-y-3 p-4" data-testid="document-view" data-kind={view.kind}>
      <p className="text-xs text-slate-600">
        <a href={`/cases/${encodeURIComponent(view.caseId)}`} className="text-blue-800 hover:underline">
          {view.caseId}
        </a>{" "}
        / documents / <span className="font-mono">{view.id}</span>
      </p>
      <ClassificationBanner classification={view.classification} />
      <h1 className="text-lg font-semibold text-slate-900">
        <SafeText text={view.name} />
      </h1>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        <dt className="text-slate-500">Type</dt>
        <dd>
          <SafeText text={view.evidenceType} /> ({view.kind}
          {view.pages ? `, ${view.pages} pages` : ""})
        </dd>
        <dt className="text-slate-500">Source system</dt>
        <dd>
          <SafeText text={view.sourceSystem} />
        </dd>
        <dt className="text-slate-500">Collected</dt>
        <dd>{formatDateTime(view.collectedAt)}</dd>
        <dt className="text-slate-500">Need-to-know</dt>
        <dd>{view.needToKnow.length ? view.needToKnow.join(", ") : "none"}</dd>
        <dt className="text-slate-500">License</dt>
        <dd className="font-mono">{view.license}</dd>
        <dt className="text-slate-500">Added by</dt>
        <dd>
          <SafeText text={view.uploadedBy} /> on {formatDateTime(view.createdAt)}
        </dd>
      </dl>
      {p ? (
        <p className="rounded-md bg-slate-50 px-2 py-1.5 text-xs text-slate-700" data-testid="cited-location">
          Cited as <span className="font-mono">{p.evidenceId}</span>
          {p.page ? ` on page ${p.page}` : ""}
          {p.line ? ` at line ${p.line}` : ""}.
        </p>
      ) : null}
      {view.kind === "pdf" ? (
        <PdfViewer
          url={`/api/cases/${encodeURIComponent(view.caseId)}/documents/${encodeURIComponent(view.id)}/original`}
          initialPage={p?.page ?? 1}
          passage={p ? { page: p.page, text: p.text } : null}
        />
      ) : view.lines ? (
        <pre className="overflow-x-auto rounded-md border border-slate-200 bg-white p-2 text-xs leading-5" data-testid="document-lines">
          {view.lines.text.map((line, i) => {
            const n = view.lines!.first + i;
            const cited = p?.line === n;
            return (
              <span key={n} className={cited ? "block bg-amber-200" : "block"} data-testid={cited ? "cited-passage" : undefined}>
                <span className="mr-2 select-none text-slate-400">{String(n).padStart(5)}</span>
                <SafeText text={line} />
              </span>
            );
          })}
        </pre>
      ) : view.text !== null ? (
        <TextWithPassage text={view.text} start={p?.start ?? null} end={p?.end ?? null} />
      ) : null}
      <ClassificationBanner classification={view.classification} />
      {p && view.kind !== "pdf" ? <ScrollToCited /> : null}
    </main>
  );
}

function TextWithPassage({ text, start, end }: { text: string; start: number | null; end: number | null }) {
  const ok = start !== null && end !== null && start >= 0 && end <= text.length && start < end;
  return (
    <div
      className="whitespace-pre-wrap rounded-md border border-slate-200 bg-white p-3 text-sm leading-6 text-slate-900"
      data-testid="document-text"
    >
      {ok ? (
        <>
          <SafeText text={text.slice(0, start)} />
          <mark id="cited" className="rounded-sm bg-amber-200 px-0.5 outline outline-1 outline-amber-500" data-testid="cited-passage">
            <SafeText text={text.slice(start, end)} />
          </mark>
          <SafeText text={text.slice(end)} />
        </>
      ) : (
        <SafeText text={text} />
      )}
    </div>
  );
}
