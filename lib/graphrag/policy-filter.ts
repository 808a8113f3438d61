// Step 4 — Policy filter (seed 003: everything deterministic is filtered before the model sees it). Every batch a
// store returns passes through the gate before anything — retrieval's own next step included — looks at it: hidden
// items leave only counts behind, so nothing the asker may not see can steer what is retrieved, shown or cited.
// The decision itself is lib/domain/policy.ts (deny by default); this file applies it to evidence, nodes and edges
// and keeps per-kind counts of distinct items.
import { denialReason, emptyCounts, evidenceDenialReason, type DenialReason, type PolicyCounts, type Viewer } from "../domain/policy";
import type { EvidenceRecord, GraphEdgeRecord, GraphNodeRecord } from "../ports";

export interface PolicySummary {
  evidence: PolicyCounts;
  nodes: PolicyCounts;
  edges: PolicyCounts;
  allowed: number;
  filtered: number;
}

type Verdict = DenialReason | null;

class Tally {
  private readonly seen = new Map<string, Verdict>();
  readonly counts: PolicyCounts = emptyCounts();

  /**
   * Counts each distinct id once and returns this item's own verdict. Should two sightings of one id ever disagree,
   * the id counts as hidden and keeps the denial (the most restrictive verdict wins).
   */
  record(id: string, verdict: Verdict): Verdict {
    if (!this.seen.has(id)) {
      this.seen.set(id, verdict);
      if (verdict) {
        this.counts.filtered++;
        this.counts.byReason[verdict]++;
      } else {
        this.counts.allowed++;
      }
    } else if (verdict && this.seen.get(id) === null) {
      this.seen.set(id, verdict);
      this.counts.allowed--;
      this.counts.filtered++;
      this.counts.byReason[verdict]++;
    }
    return verdict;
  }

  verdictOf(id: string): Verdict | undefined {
    return this.seen.get(id);
  }
}

export class PolicyGate {
  private readonly evidenceTally = new Tally();
  private readonly nodeTally = new Tally();
  private readonly edgeTally = new Tally();

  constructor(private readonly viewer: Viewer) {}

  /** Evidence the viewer may see (classification, need-to-know, license allows analysis, tenant). */
  evidence<T extends EvidenceRecord>(items: readonly T[]): T[] {
    return items.filter((e) => this.evidenceTally.record(e.id, evidenceDenialReason(this.viewer, e)) === null);
  }

  nodes<T extends GraphNodeRecord>(items: readonly T[]): T[] {
    return items.filter((n) => this.nodeTally.record(n.id, denialReason(this.viewer, n)) === null);
  }

  /**
   * An edge is visible only if it and both endpoints are. Endpoints must already have passed `nodes()`; an edge to a
   * node that was never retrieved is outside the subgraph and dropped uncounted, an edge hidden because of an
   * endpoint counts with that endpoint's reason.
   */
  edges<T extends GraphEdgeRecord>(items: readonly T[]): T[] {
    const out: T[] = [];
    for (const e of items) {
      const s = this.nodeTally.verdictOf(e.source);
      const t = this.nodeTally.verdictOf(e.target);
      if (s === undefined || t === undefined) continue;
      const verdict = denialReason(this.viewer, e) ?? s ?? t;
      if (this.edgeTally.record(e.id, verdict) === null) out.push(e);
    }
    return out;
  }

  /** True when the node was seen and allowed. */
  nodeAllowed(id: string): boolean {
    return this.nodeTally.verdictOf(id) === null;
  }

  summary(): PolicySummary {
    const evidence = structuredClone(this.evidenceTally.counts);
    const nodes = structuredClone(this.nodeTally.counts);
    const edges = structuredClone(this.edgeTally.counts);
    return {
      evidence,
      nodes,
      edges,
      allowed: evidence.allowed + nodes.allowed + edges.allowed,
      filtered: evidence.filtered + nodes.filtered + edges.filtered,
    };
  }
}
