"use client";
// Search a node by name or id (a combobox): the nodes already on screen are matched at once; when the page holds only
// an overview of a large graph, the server is asked too (its answer is policy-filtered like everything else).
import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useId, useMemo, useState } from "react";
import { cn } from "@/components/ui";
import { rankNodeMatches } from "@/lib/domain/node-search";
import type { GraphNodeView } from "@/lib/domain/workbench-views";
import { labelStyle, shapePath } from "./palette";
import { SafeText } from "@/components/ui/safe-text";

export function NodeSearch({
  nodes,
  complete,
  search,
  onPick,
}: {
  nodes: readonly GraphNodeView[];
  complete: boolean;
  /** Server search, used when `complete` is false. */
  search: (query: string) => Promise<GraphNodeView[]>;
  onPick: (node: GraphNodeView) => void;
}) {
  const id = useId();
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const deferred = useDeferredValue(query.trim());
  const local = useMemo(() => rankNodeMatches(nodes, deferred, 12), [nodes, deferred]);
  const remote = useQuery({
    queryKey: ["node-search", deferred],
    queryFn: () => search(deferred),
    enabled: !complete && deferred.length >= 2,
    staleTime: 30_000,
  });
  const results = useMemo(() => {
    if (complete || !remote.data) return local;
    const seen = new Set(local.map((n) => n.id));
    return [...local, ...remote.data.filter((n) => !seen.has(n.id))].slice(0, 15);
  }, [local, remote.data, complete]);
  const expanded = open && deferred.length > 0;
  const pick = (n: GraphNodeView) => {
    onPick(n);
    setOpen(false);
  };
  return (
    <div className="relative w-full max-w-xs">
      <label htmlFor={`${id}-input`} className="sr-only">
        Search nodes by name or id
      </label>
      <input
        id={`${id}-input`}
        type="search"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={expanded && results[active] ? `${id}-opt-${active}` : undefined}
        placeholder="Search nodes by name or id"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 120)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setOpen(true);
            setActive((a) => Math.min(a + 1, Math.max(results.length - 1, 0)));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, 0));
          } else if (e.key === "Enter") {
            const n = results[active];
            if (n) {
              e.preventDefault();
              pick(n);
            }
          } else if (e.key === "Escape") {
            setOpen(false);
          }
        }}
        className="block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm shadow-sm placeholder:text-slate-500 focus:border-blue-600 focus:outline-none focus:ring-1 focus:ring-blue-600"
        data-testid="node-search"
      />
      {expanded ? (
        <ul
          id={`${id}-list`}
          role="listbox"
          aria-label="Matching nodes"
          className="absolute left-0 right-0 top-full z-40 mt-1 max-h-72 overflow-y-auto rounded-md border border-slate-300 bg-white py-1 text-sm shadow-lg"
        >
          {results.length ? (
            results.map((n, i) => {
              const s = labelStyle(n.label);
              return (
                <li
                  key={n.id}
                  id={`${id}-opt-${i}`}
                  role="option"
                  aria-selected={i === active}
                  onMouseDown={(e) => {
                    e.preventDefault();
                    pick(n);
                  }}
                  onMouseEnter={() => setActive(i)}
                  className={cn(
                    "flex cursor-pointer items-center gap-2 px-2.5 py-1",
                    i === active ? "bg-blue-50 text-blue-950" : "text-slate-800",
                  )}
                  data-testid="node-search-option"
                >
                  <svg viewBox="0 0 16 16" className="h-3 w-3 shrink-0" aria-hidden>
                    <path d={shapePath(s.shape)} fill={s.color} />
                  </svg>
                  <span className="truncate">
                    <SafeText text={n.name} />
                  </span>
                  <span className="ml-auto shrink-0 font-mono text-[11px] text-slate-500">{n.id}</span>
                </li>
              );
            })
          ) : (
            <li className="px-2.5 py-1 text-slate-600">{remote.isFetching ? "Searching…" : "No visible node matches."}</li>
          )}
        </ul>
      ) : null}
    </div>
  );
}
