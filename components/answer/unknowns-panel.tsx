"use client";
// What the answer cannot cover, grouped: not in the evidence, hidden by policy (counts only — never what), left out of
// the context the model was shown, and removed by validation. Kept beside the answer so the gaps are read with it.
import { cn } from "@/components/ui";
import type { Answer, UnknownDetail, UnknownKind } from "@/lib/graphrag/types";
import { plural } from "./format";

const GROUPS: Array<{ kind: UnknownKind; title: string; empty: string; optional?: boolean }> = [
  { kind: "not_in_evidence", title: "Not in the evidence", empty: "The answer reports no gaps in the evidence." },
  { kind: "hidden_by_policy", title: "Hidden by policy", empty: "Nothing related to this question was hidden from you." },
  { kind: "left_out_of_context", title: "Left out of context", empty: "Everything retrieved fitted the model's context." },
  { kind: "removed_by_validation", title: "Removed by validation", empty: "", optional: true },
];

/** unknownDetails when the server sends them; otherwise the plain sentences, sorted by their wording. */
export function detailsOf(answer: Pick<Answer, "unknowns"> & { unknownDetails?: UnknownDetail[] }): UnknownDetail[] {
  if (answer.unknownDetails) return answer.unknownDetails;
  return answer.unknowns.map((text) => ({
    kind: /not visible due to policy/i.test(text)
      ? "hidden_by_policy"
      : /context|limit|excerpt|narrowed/i.test(text)
        ? "left_out_of_context"
        : /removed/i.test(text)
          ? "removed_by_validation"
          : "not_in_evidence",
    text,
  }));
}

export function UnknownsPanel({ answer, pending }: { answer: (Pick<Answer, "unknowns"> & { unknownDetails?: UnknownDetail[] }) | null; pending: boolean }) {
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
          <span className={cn("rounded-full px-1.5 text-[11px] font-bold", details.length ? "bg-amber-100 text-amber-900" : "bg-slate-100 text-slate-600")}>
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
        <div className="space-y-2.5">
          {GROUPS.map((g) => {
            const items = details.filter((d) => d.kind === g.kind);
            if (g.optional && !items.length) return null;
            return (
              <div key={g.kind} data-testid={`unknowns-${g.kind}`} data-count={items.length}>
                <h3 className="flex items-baseline gap-2 text-sm font-semibold text-slate-900">
                  {g.title}
                  {g.kind === "hidden_by_policy" && hiddenTotal ? (
                    <span className="rounded bg-slate-800 px-1.5 text-xs font-bold text-white tabular-nums" data-testid="hidden-by-policy-count" aria-label={`${hiddenTotal} items hidden by policy`}>
                      {hiddenTotal}
                    </span>
                  ) : null}
                </h3>
                {g.kind === "hidden_by_policy" && hiddenTotal ? (
                  <p className="mt-0.5 text-xs text-slate-700" data-testid="hidden-by-policy-breakdown">
                    {[
                      counts.evidence ? plural(counts.evidence, "evidence item") : "",
                      counts.nodes ? plural(counts.nodes, "node") : "",
                      counts.edges ? plural(counts.edges, "relationship") : "",
                    ].filter(Boolean).join(" · ")}{" "}
                    related to the question are outside your clearance, need-to-know or license. What they are is not shown.
                  </p>
                ) : null}
                {items.length ? (
                  <ul className="mt-1 list-disc space-y-0.5 pl-4 text-sm leading-5 text-slate-800">
                    {items.map((d) => (
                      <li key={d.text}>{d.text}</li>
                    ))}
                  </ul>
                ) : (
                  <p className="mt-0.5 text-xs text-slate-500">{g.empty}</p>
                )}
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}
