"use client";
// Bringing nodes into view: one pending focus at a time, run after the graph has had a frame to take new nodes in (a
// neighbourhood just merged, a node just selected). A later request replaces an earlier one; unmounting cancels it.
import { useCallback, useEffect, useRef, type RefObject } from "react";
import type { CaseGraphHandle } from "@/components/case-graph/case-graph";

const SETTLE_MS = 60;

export function useGraphFocus(graphRef: RefObject<CaseGraphHandle | null>) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(
    (ids: readonly string[], before?: () => void) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        timer.current = null;
        before?.();
        graphRef.current?.focus([...ids]);
      }, SETTLE_MS);
    },
    [graphRef],
  );
}
