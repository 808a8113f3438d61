"use client";
// One evidence item in full, as a marked document: the classification band above and below, type and id, source
// system, collection date, the nodes it is linked to (those the user may see), and the full text with the cited
// passage highlighted and scrolled into view, and any passage that reads as instructions to an automated reader (which
// no model was shown) underlined in red. Text is rendered as text; nothing is parsed as HTML.
import { Fragment, useEffect, useRef } from "react";
import { NodeLink } from "@/components/case-graph/node-link";
import { ClassificationBadge, ClassificationBanner } from "@/components/ui";
import { CloseButton } from "@/components/ui/close-button";
import { formatDateTime, humanise, propertyText } from "@/components/answer/format";
import { locatePassage } from "@/components/answer/citations";
import type { EvidenceView } from "@/lib/domain/workbench-views";
import { SafeText } from "@/components/ui/safe-text";
import { passagesOf } from "./passages";

export function EvidencePanel({
  caseId,
  evidenceId,
  evidence,
  loading,
  error,
  claim,
  claimId,
  onClose,
  onBack,
  backLabel,
  onSelectNode,
  nodeName,
}: {
  /** The case, for the link to an ingested document's original (issue 17). */
  caseId?: string;
  evidenceId: string;
  evidence: EvidenceView | undefined;
  loading: boolean;
  error: { code: string; message: string } | null;
  claim: string | null;
  claimId: string | null;
  onClose: () => void;
  onBack?: () => void;
  backLabel?: string;
  onSelectNode: (id: string) => void;
  nodeName: (id: string) => string | null;
}) {
  const mark = useRef<HTMLElement>(null);
  const at = evidence && claim ? locatePassage(evidence.content, claim) : null;
  useEffect(() => {
    mark.current?.scrollIntoView({ block: "center", behavior: "smooth" });
  }, [evidence?.id, claim]);

  return (
    <section
      aria-labelledby="evidence-heading"
      className="flex h-full min-h-0 flex-col"
      data-testid="evidence-panel"
      data-evidence-id={evidenceId}
      data-passage-located={at ? "true" : "false"}
    >
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-2">
        <div className="flex min-w-0 items-center gap-2">
          {onBack ? (
            <button type="button" onClick={onBack} className="shrink-0 rounded px-1 text-sm text-blue-800 hover:underline">
              ← {backLabel ?? "Back"}
            </button>
          ) : null}
          <h2 id="evidence-heading" className="truncate text-sm font-semibold text-slate-900">
            {evidence ? <SafeText text={humanise(evidence.type)} /> : "Evidence"}{" "}
            <span className="font-mono text-xs font-normal text-slate-600">{evidenceId}</span>
          </h2>
          {evidence ? <ClassificationBadge classification={evidence.classification} /> : null}
        </div>
        <CloseButton label="Close the evidence panel" onClick={onClose} />
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {loading && !evidence ? (
          <p className="p-3 text-sm text-slate-600">Loading evidence…</p>
        ) : error ? (
          <p role="alert" className="m-3 rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-900">
            This evidence could not be loaded <span className="font-mono text-xs">{error.code}</span>: {error.message}
          </p>
        ) : !evidence ? (
          <p className="p-3 text-sm text-slate-700">This evidence is not available to you.</p>
        ) : (
          <div>
            <ClassificationBanner classification={evidence.classification} />
            <div className="space-y-3 p-3">
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
                <dt className="text-slate-500">Source system</dt>
                <dd className="text-slate-900">
                  <SafeText text={evidence.sourceSystem} />
                </dd>
                <dt className="text-slate-500">Collected</dt>
                <dd className="text-slate-900">{formatDateTime(evidence.collectedAt)}</dd>
                {Object.entries(evidence.metadata).map(([k, v]) => (
                  <div key={k} className="contents">
                    <dt className="text-slate-500">
                      <SafeText text={humanise(k)} />
                    </dt>
                    <dd className="text-slate-900">
                      <SafeText text={propertyText(v)} />
                    </dd>
                  </div>
                ))}
                {evidence.source ? (
                  <>
                    <dt className="text-slate-500">Document</dt>
                    <dd className="text-slate-900" data-testid="evidence-source">
                      <SafeText text={evidence.source.document} />
                      {evidence.source.page !== undefined ? `, page ${evidence.source.page}` : ""}
                      {evidence.source.line !== undefined ? `, line ${evidence.source.line}` : ""}
                      {evidence.source.section ? (
                        <>
                          {" "}
                          · <SafeText text={evidence.source.section} />
                        </>
                      ) : null}
                      {caseId ? (
                        <a
                          href={`/cases/${encodeURIComponent(caseId)}/documents/${encodeURIComponent(evidence.source.documentId)}?evidence=${encodeURIComponent(evidence.id)}`}
                          target="_blank"
                          rel="noopener"
                          className="ml-2 text-blue-800 underline"
                          data-testid="open-original"
                        >
                          Open the original{evidence.source.page !== undefined ? ` at page ${evidence.source.page}` : ""}
                        </a>
                      ) : null}
                    </dd>
                    {evidence.source.links.length ? (
                      <>
                        <dt className="text-slate-500">Linked because</dt>
                        <dd className="space-y-0.5 text-slate-900" data-testid="evidence-links">
                          {evidence.source.links.map((l) => (
                            <span key={l.node} className="block">
                              “<SafeText text={l.matched} />” ({l.kind}) →{" "}
                              <NodeLink id={l.node} name={nodeName(l.node)} onSelect={onSelectNode} />
                            </span>
                          ))}
                        </dd>
                      </>
                    ) : null}
                  </>
                ) : null}
                <dt className="text-slate-500">Linked to</dt>
                <dd className="flex flex-wrap gap-1">
                  {evidence.nodeIds.length ? (
                    evidence.nodeIds.map((id) => <NodeLink key={id} id={id} name={nodeName(id)} onSelect={onSelectNode} />)
                  ) : (
                    <span className="text-slate-600">No node you can see</span>
                  )}
                </dd>
              </dl>
              {claim ? (
                <p className="rounded-md bg-slate-50 px-2 py-1.5 text-xs text-slate-700">
                  Cited for{claimId ? <span className="font-mono"> {claimId}</span> : null}: “{claim}”
                  {!at ? (
                    <span className="mt-0.5 block text-slate-600">The exact passage could not be located; the whole item is shown.</span>
                  ) : null}
                </p>
              ) : null}
              {evidence.instructions.length ? (
                <p className="rounded-md bg-red-50 px-2 py-1.5 text-xs text-red-900" data-testid="instruction-note">
                  Text marked with a red underline reads as instructions to an automated reader. It was withheld from the model, and no
                  answer repeats it.
                </p>
              ) : null}
              <div className="whitespace-pre-wrap text-sm leading-6 text-slate-900" data-testid="evidence-text">
                {passagesOf(evidence.content, at, evidence.instructions).map((p, i, all) => {
                  const text = <SafeText text={p.text} />;
                  const marked = p.instruction ? (
                    <span
                      className="bg-red-50 underline decoration-red-600 decoration-wavy"
                      title="Reads as instructions to an automated reader; withheld from the model"
                      data-testid="instruction-passage"
                    >
                      {text}
                    </span>
                  ) : (
                    text
                  );
                  return p.cited ? (
                    <mark
                      key={i}
                      // The first run of the cited passage is the one scrolled into view.
                      ref={all.findIndex((q) => q.cited) === i ? mark : undefined}
                      className="rounded-sm bg-amber-200 px-0.5 text-slate-950 outline outline-1 outline-amber-500"
                      data-testid="cited-passage"
                    >
                      {marked}
                    </mark>
                  ) : (
                    <Fragment key={i}>{marked}</Fragment>
                  );
                })}
              </div>
            </div>
            <ClassificationBanner classification={evidence.classification} />
          </div>
        )}
      </div>
    </section>
  );
}
