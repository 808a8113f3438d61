// The provenance footer under an answer (issue 15, seed 004 §10): how the answer came about — normal or reused (and
// from which request), the query hash, the cited sources, versions, the model and the kill switches in force.
import type { Provenance } from "@/lib/grounding/provenance";

export function ProvenanceFooter({ provenance: p }: { provenance: Provenance }) {
  const on = Object.entries(p.killSwitches)
    .filter(([, v]) => v)
    .map(([k]) => k)
    .sort();
  return (
    <details className="text-[11px] text-slate-600" data-testid="provenance" data-mode={p.mode}>
      <summary className="cursor-pointer select-none">
        Provenance:{" "}
        {p.mode === "reused" ? <span data-testid="provenance-reused">reused answer (from request {p.reusedFrom})</span> : "answered now"} ·{" "}
        {p.evidenceCount} source{p.evidenceCount === 1 ? "" : "s"} · query {p.queryHash}
      </summary>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 font-mono">
        <dt>Sources</dt>
        <dd data-testid="provenance-sources">{p.sources.join(", ") || "none"}</dd>
        <dt>Timestamp</dt>
        <dd>{p.timestamp}</dd>
        <dt>Contract</dt>
        <dd>
          {p.groundingContractVersion} · prompt {p.promptVersion} · model {p.model ?? "none"}
        </dd>
        {p.policyBundle ? (
          <>
            <dt>Policy bundle</dt>
            <dd>{p.policyBundle}</dd>
          </>
        ) : null}
        <dt>Kill switches</dt>
        <dd>{on.length ? on.join(", ") : "none on"}</dd>
      </dl>
    </details>
  );
}
