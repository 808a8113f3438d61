"use client";
// The evidence an answer cites: the ids that may become citation chips (cited in the answer AND in the context the
// model was shown, plus the explanation steps'), fetched once per answer — policy-checked on the server again — and
// cached per item for the evidence panel.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { unwrap } from "@/components/providers";
import type { ActionResult } from "@/lib/auth/guard";
import type { GraphRagResponse } from "@/lib/graphrag/types";
import type { EvidenceView } from "@/lib/domain/workbench-views";

type LoadEvidence = (input: { caseId: string; ids: string[] }) => Promise<ActionResult<EvidenceView[]>>;

export function useCitedEvidence(caseId: string, response: GraphRagResponse | null, loadEvidence: LoadEvidence) {
  const qc = useQueryClient();
  const knownIds = useMemo(() => {
    if (!response) return new Set<string>();
    const inContext = new Set(response.rawContext.evidenceSnippets.map((s) => s.id));
    return new Set(response.answer.citations.map((c) => c.evidenceId).filter((id) => inContext.has(id)));
  }, [response]);

  const citedList = useMemo(() => {
    if (!response) return [] as string[];
    const fromSteps = response.answer.explanationSteps.flatMap((s) => s.citations);
    const inContext = new Set(response.rawContext.evidenceSnippets.map((s) => s.id));
    return [...new Set([...knownIds, ...fromSteps.filter((id) => inContext.has(id))])].slice(0, 100);
  }, [response, knownIds]);
  const cited = useQuery({
    queryKey: ["evidence-batch", caseId, citedList.join(",")],
    enabled: citedList.length > 0,
    queryFn: async () => {
      const items = await unwrap(loadEvidence({ caseId, ids: citedList }));
      for (const it of items) qc.setQueryData(["evidence", caseId, it.id], it);
      return new Map(items.map((it) => [it.id, it]));
    },
  });

  return { knownIds, cited };
}
