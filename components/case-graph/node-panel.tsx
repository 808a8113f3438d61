"use client";
// A selected node: its marking, label, id and properties, and the evidence linked to it that the user may see (linked
// items they may not see are a count only). Evidence opens in the evidence panel.
import { Button, ClassificationBadge } from "@/components/ui";
import { CloseButton } from "@/components/ui/close-button";
import { formatDate, humanise, plural, propertyText } from "@/components/answer/format";
import type { EvidenceSummary, GraphNodeView, PropertyValue } from "@/lib/domain/workbench-views";
import { labelStyle, shapePath } from "./palette";
import { SafeText } from "@/components/ui/safe-text";

export function NodePanel({
  node,
  evidence,
  hiddenEvidence,
  loading,
  error,
  onClose,
  onOpenEvidence,
  onExpand,
  expanding,
  canExpand,
}: {
  node: GraphNodeView & { properties?: Record<string, PropertyValue> };
  evidence: EvidenceSummary[] | undefined;
  hiddenEvidence: number;
  loading: boolean;
  error: { code: string; message: string } | null;
  onClose: () => void;
  onOpenEvidence: (id: string) => void;
  onExpand: () => void;
  expanding: boolean;
  canExpand: boolean;
}) {
  const s = labelStyle(node.label);
  const props = Object.entries(node.properties ?? {}).filter(([k]) => k !== "name");
  return (
    <section aria-labelledby="node-heading" className="flex h-full min-h-0 flex-col" data-testid="node-panel" data-node-id={node.id}>
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-2">
        <div className="flex min-w-0 items-center gap-2">
          <svg viewBox="0 0 16 16" className="h-4 w-4 shrink-0" aria-hidden>
            <path d={shapePath(s.shape)} fill={s.color} />
          </svg>
          <h2 id="node-heading" className="truncate text-sm font-semibold text-slate-900">
            <SafeText text={node.name} />
          </h2>
          <span className="shrink-0 text-xs text-slate-600">
            <SafeText text={node.label} />
          </span>
          <ClassificationBadge classification={node.classification} />
        </div>
        <CloseButton label="Close the node panel" onClick={onClose} />
      </div>
      <div className="min-h-0 flex-1 space-y-3 overflow-y-auto p-3">
        <div className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
          <span className="font-mono">
            <SafeText text={node.id} />
          </span>
          <span>· {plural(node.degree, "visible relationship")}</span>
          {canExpand ? (
            <Button size="sm" variant="secondary" onClick={onExpand} busy={expanding} className="ml-auto">
              Show neighbours
            </Button>
          ) : null}
        </div>
        {props.length ? (
          <dl className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-3 gap-y-1 text-xs">
            {props.map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="text-slate-500">
                  <SafeText text={humanise(k)} />
                </dt>
                <dd className="break-words text-slate-900">
                  <SafeText text={propertyText(v)} />
                </dd>
              </div>
            ))}
          </dl>
        ) : null}
        <div>
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-600">Linked evidence</h3>
          {loading && !evidence ? (
            <p className="mt-1 text-sm text-slate-600">Loading…</p>
          ) : error ? (
            <p role="alert" className="mt-1 text-sm text-red-800">
              Could not load the linked evidence <span className="font-mono text-xs">{error.code}</span>.
            </p>
          ) : (
            <>
              {evidence?.length ? (
                <ul className="mt-1 space-y-1" data-testid="node-evidence">
                  {evidence.map((e) => (
                    <li key={e.id}>
                      <button
                        type="button"
                        onClick={() => onOpenEvidence(e.id)}
                        className="block w-full rounded-md border border-slate-200 px-2 py-1.5 text-left hover:border-blue-600 hover:bg-blue-50/40"
                      >
                        <span className="flex items-center gap-2 text-xs">
                          <span className="font-medium text-slate-900">{humanise(e.type)}</span>
                          <span className="font-mono text-slate-600">{e.id}</span>
                          <span className="ml-auto text-slate-600">{formatDate(e.collectedAt)}</span>
                          <ClassificationBadge classification={e.classification} />
                        </span>
                        <span className="mt-0.5 block text-xs leading-5 text-slate-700">
                          <SafeText text={e.excerpt} />
                        </span>
                      </button>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="mt-1 text-sm text-slate-600">No linked evidence you may see.</p>
              )}
              {hiddenEvidence ? (
                <p className="mt-1.5 text-xs text-slate-700" data-testid="node-hidden-evidence">
                  {plural(hiddenEvidence, "more linked item")} {hiddenEvidence === 1 ? "is" : "are"} hidden by policy.
                </p>
              ) : null}
            </>
          )}
        </div>
      </div>
    </section>
  );
}
