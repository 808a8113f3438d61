"use client";
// Nodes and edges a generative model proposed from uploaded documents (issue 17): each waits here for an investigator
// to accept it (it is then added to the graph, marked like its document) or reject it. Nothing is added silently.
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { errorOf, unwrap } from "@/components/providers";
import { Button, ClassificationBadge, SafeText } from "@/components/ui";
import { decideProposalAction, loadProposals } from "@/app/(workbench)/cases/[caseId]/proposal-actions";
import type { ProposalView } from "@/lib/server/ingest/proposals";

export function ProposalsList({ caseId, refreshKey, onAccepted }: { caseId: string; refreshKey: number; onAccepted: () => void }) {
  const query = useQuery({ queryKey: ["proposals", caseId, refreshKey], queryFn: () => unwrap(loadProposals({ caseId })) });
  const [decisionError, setError] = useState<string | null>(null);
  const loadError = errorOf(query.error);
  const error = decisionError ?? (loadError ? `${loadError.code} ${loadError.message}` : null);
  const items: ProposalView[] | undefined = query.data;
  const decide = async (proposalId: string, decision: "accept" | "reject") => {
    const r = await decideProposalAction({ caseId, proposalId, decision });
    if (!r.ok) setError(`${r.error.code} ${r.error.message}`);
    else if (decision === "accept") onAccepted();
    await query.refetch();
  };
  if (!items?.length && !error) return null;
  return (
    <section className="space-y-2" data-testid="proposals">
      <h3 className="text-sm font-semibold text-slate-900">Proposed by the model — accept or reject each</h3>
      {error ? <p className="text-xs text-red-800">{error}</p> : null}
      <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
        {items?.map((p) => (
          <li key={p.id} className="flex items-center justify-between gap-2 px-3 py-2 text-sm" data-testid="proposal" data-id={p.id}>
            <span className="min-w-0">
              <ClassificationBadge classification={p.classification} />{" "}
              {p.kind === "node" ? (
                <>
                  New {p.label}: <SafeText text={p.name ?? ""} />
                </>
              ) : (
                <>
                  <SafeText text={p.source ?? ""} /> —{p.type}→ <SafeText text={p.target ?? ""} />
                </>
              )}
              <span className="block text-xs text-slate-600">
                from {p.evidence.join(", ")} · {p.model}
              </span>
            </span>
            <span className="flex shrink-0 gap-1">
              <Button size="sm" variant="secondary" onClick={() => void decide(p.id, "accept")}>
                Accept
              </Button>
              <Button size="sm" variant="ghost" onClick={() => void decide(p.id, "reject")}>
                Reject
              </Button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
