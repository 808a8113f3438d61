"use client";
// What the answer cannot cover, grouped: not in the evidence, hidden by policy (counts only — never what), left out of
// the context the model was shown, and removed by validation. Kept beside the answer so the gaps are read with it.
import { cn } from "@/components/ui";
import type { Answer, UnknownDetail, UnknownKind } from "@/lib/graphrag/types";
import { plural } from "./format";

const GROUPS: Array<{ kind: UnknownKind; title: string; empty: string; optional?: boolean }> = [
  { kind: "not_in_evidence", title: "Not in the evidence", empty: "The answer reports no gaps in the evidence." },
  { kind: "hidden_by_policy", title: "Hidden by policy", empty: "Nothing was hidden from you." },
  { kind: "left_out_of_context", title: "Left out of context", empty: "Everything retrieved fitted the model's context." },
  { kind: "removed_by_validation", title: "Removed by validation", empty: "", optional: true },
];

/** unknownDetails when the server sends them; otherwise the plain sentences, sorted by their wording. */
export function detailsOf(answer: Pick<Answer, "unknowns"> & { unknownDetails?: UnknownDetail[] }): UnknownDetail[] {
  if (answer.unknownDetails) return answer.unknownDetails;
  return answer.unknowns.map((text) => ({
    kind: /not visible due to policy|outside your permissions/i.test(text)
      ? "hidden_by_policy"
      : /context|limit|excerpt|narrowed/i.test(text)
        ? "left_out_of_context"
        : /removed/i.test(text)
          ? "removed_by_validation"
          : "not_in_evidence",
    text,
  }));
}

export function UnknownsPanel({
  answer,
  pending,
}: {
  answer: (Pick<Answer, "unknowns"> & { unknownDetails?: UnknownDetail[] }) | null;
  pending: boolean;
}) {
  const details = answer ? detailsOf(answer) : [];
  const hidden = details.filter((d) => d.kind === "hidden_by_policy");
  const counts = {
    evidence: hidden.reduce((n, d) => n + (d.counts?.evidence ?? 0), 0),
    nodes: hidden.reduce((n, d) => n + (d.counts?.nodes ?? 0), 0),
    edges: hidden.reduce((n, d) => n + (d.counts?.edges ?? 0), 0),
  };
  const hiddenTotal = counts.evidence + counts.nodes + counts.edges;
  return (
    <section aria-labelledby="unknowns-heading" className="space-y-2" data-testid="unknowns-panel" data-count={details.length}>
      <h2 id="unknowns-heading" className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-slate-600">
        Unknowns
        {answer ? (
          <span
            className={cn(
              "rounded-full px-1.5 text-[11px] font-bold",
              details.length ? "bg-amber-100 text-amber-900" : "bg-slate-100 text-slate-600",
            )}
          >
            {details.length}
          </span>
        ) : null}
      </h2>
      {!answer ? (
        <p className="text-sm text-slate-600" data-testid="unknowns-empty">
          {pending ? "Waiting for the answer…" : "Ask a question to see what its answer cannot cover."}
        </p>
      ) : details.length === 0 ? (
        <p className="text-sm text-slate-700" data-testid="unknowns-empty">
          No unknowns: nothing was hidden, left out or reported missing for this answer.
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white">
          {GROUPS.map((g) => {
            const items = details.filter((d) => d.kind === g.kind);
            if (g.optional && !items.length) return null;
            const policy = g.kind === "hidden_by_policy";
            const count = policy && hiddenTotal ? hiddenTotal : items.length;
            const breakdown = policy
              ? [
                  counts.evidence ? plural(counts.evidence, "evidence item") : "",
                  counts.nodes ? plural(counts.nodes, "node") : "",
                  counts.edges ? plural(counts.edges, "relationship") : "",
                ]
                  .filter(Boolean)
                  .join(" · ")
              : "";
            const head = (
              <>
                <span className="shrink-0 whitespace-nowrap font-semibold text-slate-900">{g.title}</span>
                <span
                  className={cn(
                    "shrink-0 rounded px-1.5 text-xs font-bold tabular-nums",
                    count ? (policy ? "bg-slate-800 text-white" : "bg-amber-100 text-amber-950") : "bg-slate-100 text-slate-600",
                  )}
                  {...(policy && hiddenTotal
                    ? { "data-testid": "hidden-by-policy-count", "aria-label": `${hiddenTotal} items hidden by policy` }
                    : {})}
                >
                  {count}
                </span>
                {breakdown ? (
                  <span className="truncate text-xs text-slate-700" data-testid="hidden-by-policy-breakdown">
                    {breakdown}
                  </span>
                ) : null}
              </>
            );
            return (
              <li key={g.kind} data-testid={`unknowns-${g.kind}`} data-count={items.length} className="text-sm">
                {items.length ? (
                  <details open={g.kind === "not_in_evidence" || g.kind === "removed_by_validation"} className="group">
                    <summary className="flex cursor-pointer list-none items-center gap-2 px-2.5 py-1.5 marker:hidden">
                      <span aria-hidden className="text-[10px] text-slate-500 transition-transform group-open:rotate-90">
                        ▶
                      </span>
                      {head}
                    </summary>
                    <div className="space-y-1 px-2.5 pb-2 pl-7">
                      {policy ? (
                        <p className="text-xs text-slate-600">
                          Outside your clearance, need-to-know or license. Only the count is shown, never what they are.
                        </p>
                      ) : null}
                      <ul className="list-disc space-y-0.5 pl-4 leading-5 text-slate-800">
                        {items.map((d) => (
                          <li key={d.text}>{d.text}</li>
                        ))}
                      </ul>
                    </div>
                  </details>
                ) : (
                  <div className="flex items-center gap-2 px-2.5 py-1.5 pl-7" title={g.empty}>
                    {head}
                    <span className="truncate text-xs text-slate-500">{g.empty}</span>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
