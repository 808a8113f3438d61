// CaseDisclosure (lib/ports.ts): what of a whole case a viewer cannot see, as counts that depend on no question — the
// same totals the case page shows (lib/server/workbench/counts.ts). Computing them reads the case's outline, so they
// are kept per viewer and case for a short while: a count a few seconds old reveals nothing new, and asking ten
// questions in a row costs one read.
import "server-only";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Viewer } from "../../domain/policy";
import type { CaseDisclosure, CaseGraphStore, CaseScope, HiddenTotals } from "../../ports";
import { visibleCounts } from "../workbench/counts";

const TTL_MS = 30_000;
const MAX_ENTRIES = 1_000;
const cache = new Map<string, { at: number; totals: Promise<HiddenTotals> }>();

/** The key holds everything the counts depend on for this viewer: a changed clearance or tag set is a new key. */
const keyOf = (viewer: Viewer, scope: CaseScope) =>
  JSON.stringify([scope.tenantId, scope.caseId, viewer.userId, viewer.tenantId, viewer.clearance, [...viewer.needToKnow].sort()]);

export function caseDisclosure(prisma: PrismaClient, graph: CaseGraphStore): CaseDisclosure {
  return {
    hiddenTotals(viewer, scope) {
      const key = keyOf(viewer, scope);
      const now = Date.now();
      const hit = cache.get(key);
      if (hit && now - hit.at < TTL_MS) return hit.totals;
      const totals = visibleCounts(prisma, graph, viewer, [{ id: scope.caseId, tenantId: scope.tenantId }]).then(
        (m) => m.get(scope.caseId)!.hidden,
      );
      totals.catch(() => cache.delete(key));
      if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
      cache.set(key, { at: now, totals });
      return totals;
    },
  };
}
