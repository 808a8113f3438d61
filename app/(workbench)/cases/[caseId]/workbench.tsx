"use client";
// The case workbench: the graph (left) with an inspector for a node or an evidence item below it, and the ask panel,
// the answer or the question history, and the unknowns (right). Everything shown came from the server already
// filtered for this user; this component only arranges it.
import Link from "next/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { AskPanel } from "@/components/answer/ask-panel";
import { AnswerView, type GraphNames, type StepTargets } from "@/components/answer/answer-view";
import { CitationContext, type CitationApi } from "@/components/answer/citation-text";
import { HistoryPanel } from "@/components/answer/history-panel";
import { plural } from "@/components/answer/format";
import { UnknownsPanel } from "@/components/answer/unknowns-panel";
import { useAskStream } from "@/components/answer/use-ask";
import { CaseGraph, type CaseGraphHandle, type GraphHighlight } from "@/components/case-graph/case-graph";
import { Legend } from "@/components/case-graph/legend";
import { NodePanel } from "@/components/case-graph/node-panel";
import { NodeSearch } from "@/components/case-graph/node-search";
import { EvidencePanel } from "@/components/evidence/evidence-panel";
import { errorOf, unwrap } from "@/components/providers";
import { ClassificationBadge, cn } from "@/components/ui";
import type { CaseGraphView, EvidenceView, ExampleQuestion, GraphEdgeView, GraphNodeView, VisibleCounts } from "@/lib/server/workbench/types";
import { askStream } from "./actions";
import { expandNode, findNodes, loadCaseGraph, loadEvidence, loadHistory, loadNodeDetails } from "./workbench-actions";
import { SafeText } from "@/components/ui/safe-text";

type Inspector =
  | { kind: "node"; id: string; back?: Inspector }
  | { kind: "evidence"; id: string; claim: string | null; claimId: string | null; back?: Inspector };

type Focus = { kind: "evidence"; id: string } | { kind: "step"; n: number; targets: StepTargets } | null;

export interface CaseInfo {
  id: string;
  title: string;
  classification: string;
  status: string;
  tenantName: string;
}

declare global {
  interface Window {
    /** performance.now() when the graph first became interactive (read by the UI bench). */
    __casegraphGraphReadyAt?: number;
  }
}

export function Workbench({
  caseInfo,
  initialGraph,
  examples,
  evidenceCounts,
  canAsk,
}: {
  caseInfo: CaseInfo;
  initialGraph: CaseGraphView;
  examples: ExampleQuestion[];
  evidenceCounts: { visible: VisibleCounts["evidence"]; hidden: VisibleCounts["evidence"] };
  canAsk: boolean;
}) {
  const caseId = caseInfo.id;
  const qc = useQueryClient();
  const graphRef = useRef<CaseGraphHandle>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  // ---- graph data: the page's graph, plus neighbourhoods loaded on demand
  const graphQuery = useQuery({
    queryKey: ["graph", caseId],
    queryFn: () => unwrap(loadCaseGraph({ caseId })),
    initialData: initialGraph,
    staleTime: 5 * 60_000,
  });
  const graph = graphQuery.data;
  const [extra, setExtra] = useState<{ nodes: GraphNodeView[]; edges: GraphEdgeView[] }>({ nodes: [], edges: [] });
  const { nodes, edges, nodeById } = useMemo(() => {
    const byId = new Map<string, GraphNodeView>();
    for (const n of graph.nodes) byId.set(n.id, n);
    for (const n of extra.nodes) if (!byId.has(n.id)) byId.set(n.id, n);
    const edgeIds = new Set<string>();
    const allEdges: GraphEdgeView[] = [];
    for (const e of [...graph.edges, ...extra.edges]) {
      if (edgeIds.has(e.id) || !byId.has(e.source) || !byId.has(e.target)) continue;
      edgeIds.add(e.id);
      allEdges.push(e);
    }
    return { nodes: [...byId.values()], edges: allEdges, nodeById: byId };
  }, [graph, extra]);
  const edgeById = useMemo(() => new Map(edges.map((e) => [e.id, e])), [edges]);
  const [hiddenLabels, setHiddenLabels] = useState<ReadonlySet<string>>(new Set());
  const labelCounts = useMemo(() => {
    const m = new Map<string, number>();
    for (const n of nodes) m.set(n.label, (m.get(n.label) ?? 0) + 1);
    return [...m.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  }, [nodes]);

  const merge = useCallback((more: { nodes: GraphNodeView[]; edges: GraphEdgeView[] }) => {
    setExtra((x) => ({ nodes: [...x.nodes, ...more.nodes], edges: [...x.edges, ...more.edges] }));
  }, []);
  const [expanding, setExpanding] = useState<string | null>(null);
  const expand = useCallback(
    async (id: string) => {
      setExpanding(id);
      try {
        merge(await unwrap(expandNode({ caseId, nodeId: id })));
      } catch {
        // The node panel still shows the node; the neighbours can be asked for again.
      } finally {
        setExpanding(null);
      }
    },
    [caseId, merge],
  );

  // ---- selection, inspector, highlight
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [inspector, setInspector] = useState<Inspector | null>(null);
  const [focus, setFocus] = useState<Focus>(null);

  /** Selects a node and opens it in the inspector; a highlight from a citation or a step is cleared unless kept. */
  const selectNode = useCallback((id: string | null, from?: Inspector | null, keepHighlight = false) => {
    setSelectedId(id);
    if (id) setInspector({ kind: "node", id, back: from ?? undefined });
    if (!keepHighlight) setFocus(null);
  }, []);

  // ---- asking
  const [question, setQuestion] = useState("");
  const [tab, setTab] = useState<"answer" | "history">("answer");
  const ask = useAskStream(caseId, askStream, () => void qc.invalidateQueries({ queryKey: ["history", caseId] }));
  const run = ask.state;
  const response = run?.response ?? null;
  const rawContext = response?.rawContext ?? run?.failure?.rawContext ?? null;
  const answer = response?.answer ?? run?.failure?.answer ?? null;
  const submit = (q: string) => {
    const text = q.trim();
    if (!text) return;
    setQuestion(text);
    setTab("answer");
    setFocus(null);
    ask.ask(text);
  };

  // Evidence ids that may become chips: cited in the answer AND in the context the model was shown.
  const knownIds = useMemo(() => {
    if (!response) return new Set<string>();
    const inContext = new Set(response.rawContext.evidenceSnippets.map((s) => s.id));
    return new Set(response.answer.citations.map((c) => c.evidenceId).filter((id) => inContext.has(id)));
  }, [response]);

  // Cited evidence, fetched once per answer (policy-checked on the server again) and cached per item.
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

  const citationApi: CitationApi = useMemo(
    () => ({
      card(id) {
        const item = cited.data?.get(id) ?? qc.getQueryData<EvidenceView | null>(["evidence", caseId, id]) ?? null;
        if (item) return { evidence: { ...item, text: item.content }, loading: false };
        return { evidence: null, loading: cited.isLoading };
      },
      open(id, claim, claimId) {
        // The chip of the evidence already open closes it again (the chips are toggle buttons).
        if (inspector?.kind === "evidence" && inspector.id === id) {
          setInspector(null);
          setFocus(null);
          return;
        }
        setInspector((cur) => ({ kind: "evidence", id, claim, claimId, back: cur?.kind === "node" ? cur : undefined }));
        setFocus({ kind: "evidence", id });
        setSelectedId(null);
      },
      activeId: inspector?.kind === "evidence" ? inspector.id : null,
    }),
    [cited.data, cited.isLoading, qc, caseId, inspector],
  );

  // ---- inspector data
  const nodeDetails = useQuery({
    queryKey: ["node", caseId, inspector?.kind === "node" ? inspector.id : ""],
    enabled: inspector?.kind === "node",
    queryFn: () => unwrap(loadNodeDetails({ caseId, nodeId: inspector!.id })),
  });
  const evidenceQuery = useQuery({
    queryKey: ["evidence", caseId, inspector?.kind === "evidence" ? inspector.id : ""],
    enabled: inspector?.kind === "evidence",
    queryFn: async () => (await unwrap(loadEvidence({ caseId, ids: [inspector!.id] })))[0] ?? null,
  });

  const history = useQuery({ queryKey: ["history", caseId], queryFn: () => unwrap(loadHistory({ caseId })) });

  // ---- what is highlighted in the graph
  const highlight: GraphHighlight | null = useMemo(() => {
    if (focus?.kind === "step") {
      const ids = new Set(focus.targets.nodes);
      for (const eid of focus.targets.edges) {
        const e = edgeById.get(eid) ?? rawContext?.edges.find((x) => x.id === eid);
        if (e) {
          ids.add(e.source);
          ids.add(e.target);
        }
      }
      for (const evId of focus.targets.evidence) {
        for (const n of rawContext?.evidenceSnippets.find((s) => s.id === evId)?.nodeIds ?? []) ids.add(n);
      }
      return { nodes: ids, edges: new Set(focus.targets.edges) };
    }
    if (focus?.kind === "evidence") {
      const item = evidenceQuery.data && evidenceQuery.data.id === focus.id ? evidenceQuery.data : cited.data?.get(focus.id);
      const ids = item?.nodeIds ?? rawContext?.evidenceSnippets.find((s) => s.id === focus.id)?.nodeIds ?? [];
      return { nodes: new Set(ids), edges: new Set() };
    }
    return null;
  }, [focus, evidenceQuery.data, cited.data, rawContext, edgeById]);

  // Bring highlighted nodes into view; on a partial graph, load the ones not on screen yet.
  const highlightKey = highlight ? [...highlight.nodes].sort().join(" ") : "";
  useEffect(() => {
    if (!highlightKey) return;
    const ids = highlightKey.split(" ");
    const missing = ids.filter((id) => !nodeById.has(id));
    const t = setTimeout(() => {
      if (missing.length && !graph.complete) for (const id of missing.slice(0, 5)) void expand(id);
      graphRef.current?.focus(ids);
    }, 60);
    return () => clearTimeout(t);
    // nodeById changes as neighbourhoods arrive; focusing again then is wanted.
  }, [highlightKey, nodeById, graph.complete, expand]);

  const names: GraphNames = useMemo(
    () => ({
      nodeName: (id) => nodeById.get(id)?.name ?? rawContext?.nodes.find((n) => n.id === id)?.name ?? null,
      edgeLabel: (id) => {
        const e = edgeById.get(id) ?? rawContext?.edges.find((x) => x.id === id);
        if (!e) return null;
        const n = (x: string) => nodeById.get(x)?.name ?? rawContext?.nodes.find((m) => m.id === x)?.name ?? x;
        return `${n(e.source)} → ${e.type.replace(/_/g, " ").toLowerCase()} → ${n(e.target)}`;
      },
    }),
    [nodeById, edgeById, rawContext],
  );

  const onReady = useCallback((at: number) => {
    window.__casegraphGraphReadyAt = at;
  }, []);

  const inspectorNode = inspector?.kind === "node" ? (nodeDetails.data?.node.id === inspector.id ? nodeDetails.data.node : nodeById.get(inspector.id)) ?? null : null;
  const hiddenGraph = graph.hidden.nodes + graph.hidden.edges;

  return (
    <CitationContext.Provider value={citationApi}>
      <div className="flex h-[calc(100vh-7rem)] min-h-[600px] flex-col gap-3" data-testid="workbench">
        <header className="flex flex-wrap items-end justify-between gap-x-4 gap-y-1">
          <div className="min-w-0">
            <p className="text-xs text-slate-600">
              <Link href="/cases" className="text-blue-800 hover:underline">Cases</Link> / {caseInfo.tenantName} · <span className="font-mono">{caseId}</span>
            </p>
            <h1 className="flex items-center gap-2 truncate text-xl font-semibold tracking-tight text-slate-900">
              <SafeText text={caseInfo.title} />
              <ClassificationBadge classification={caseInfo.classification} />
              <span className="text-xs font-normal uppercase text-slate-600">{caseInfo.status.toLowerCase()}</span>
            </h1>
          </div>
          <p className="text-xs text-slate-700" data-testid="case-visibility">
            You can see {plural(graph.visible.nodes, "node")}, {plural(graph.visible.edges, "relationship")} and {plural(evidenceCounts.visible, "evidence item")}.
            {hiddenGraph || evidenceCounts.hidden ? (
              <span className="ml-1 text-slate-600">
                Hidden by policy: {[
                  graph.hidden.nodes ? plural(graph.hidden.nodes, "node") : "",
                  graph.hidden.edges ? plural(graph.hidden.edges, "relationship") : "",
                  evidenceCounts.hidden ? plural(evidenceCounts.hidden, "evidence item") : "",
                ].filter(Boolean).join(", ")}.
              </span>
            ) : null}
          </p>
        </header>

        <div className="grid min-h-0 flex-1 grid-cols-[minmax(0,1fr)_440px] gap-3 xl:grid-cols-[minmax(0,1fr)_500px]">
          {/* Graph and inspector */}
          <section aria-label="Case graph" className="flex min-h-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
            <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-2 py-1.5">
              <NodeSearch
                nodes={nodes}
                complete={graph.complete}
                search={(q) => unwrap(findNodes({ caseId, query: q }))}
                onPick={(n) => {
                  if (!nodeById.has(n.id)) void expand(n.id);
                  selectNode(n.id);
                  setTimeout(() => graphRef.current?.focus([n.id]), 80);
                }}
              />
              <div className="ml-auto flex items-center gap-1" role="group" aria-label="Graph view">
                <ToolButton label="Zoom in" onClick={() => graphRef.current?.zoomBy(1.3)}>+</ToolButton>
                <ToolButton label="Zoom out" onClick={() => graphRef.current?.zoomBy(1 / 1.3)}>−</ToolButton>
                <ToolButton label="Fit the graph to the view" onClick={() => graphRef.current?.fit()} wide>Fit</ToolButton>
                <ToolButton
                  label="Reset: clear selection and highlight, lay out again"
                  onClick={() => {
                    setFocus(null);
                    setSelectedId(null);
                    setHiddenLabels(new Set());
                    graphRef.current?.relayout();
                  }}
                  wide
                >
                  Reset
                </ToolButton>
              </div>
            </div>
            {!graph.complete ? (
              <p className="border-b border-amber-200 bg-amber-50 px-3 py-1 text-xs text-amber-950" data-testid="graph-partial">
                Showing the {plural(graph.nodes.length, "best-connected node")} of {graph.visible.nodes.toLocaleString("en-US")}. Search for a node or
                select one and choose “Show neighbours” to expand.
              </p>
            ) : null}
            <div className={cn("relative min-h-0", inspector ? "flex-[1_1_52%]" : "flex-1")}>
              {nodes.length ? (
                <CaseGraph
                  ref={graphRef}
                  nodes={nodes}
                  edges={edges}
                  selectedId={selectedId}
                  highlight={highlight}
                  hiddenLabels={hiddenLabels}
                  onSelectNode={(id) => (id ? selectNode(id) : setSelectedId(null))}
                  onReady={onReady}
                  layoutCacheKey={caseId}
                  ariaLabel={`Graph of ${caseInfo.title}: ${plural(nodes.length, "node")} and ${plural(edges.length, "relationship")}. Use the node search to select a node; arrow keys pan, plus and minus zoom, 0 fits.`}
                />
              ) : (
                <p className="p-6 text-sm text-slate-600">There is no part of this case&apos;s graph you may see.</p>
              )}
            </div>
            <div className="border-t border-slate-200 px-2 py-1.5">
              <Legend
                counts={labelCounts}
                hidden={hiddenLabels}
                onToggle={(label) =>
                  setHiddenLabels((h) => {
                    const next = new Set(h);
                    if (next.has(label)) next.delete(label);
                    else next.add(label);
                    return next;
                  })
                }
              />
            </div>
            {inspector ? (
              <div
                className="min-h-0 flex-[1_1_48%] border-t-2 border-slate-300 bg-white"
                data-testid="inspector"
                onKeyDown={(e) => {
                  // Escape closes the inspector (a hover card open inside it handles Escape first).
                  if (e.key === "Escape" && !e.defaultPrevented) {
                    setInspector(null);
                    setSelectedId(null);
                    if (focus?.kind === "evidence") setFocus(null);
                  }
                }}
              >
                {inspector.kind === "evidence" ? (
                  <EvidencePanel
                    evidenceId={inspector.id}
                    evidence={evidenceQuery.data ?? undefined}
                    loading={evidenceQuery.isLoading}
                    error={errorOf(evidenceQuery.error)}
                    claim={inspector.claim}
                    claimId={inspector.claimId}
                    onClose={() => {
                      setInspector(null);
                      if (focus?.kind === "evidence") setFocus(null);
                    }}
                    onBack={inspector.back ? () => setInspector(inspector.back!) : undefined}
                    backLabel={inspector.back?.kind === "node" ? nodeById.get(inspector.back.id)?.name : undefined}
                    onSelectNode={(id) => {
                      if (!nodeById.has(id)) void expand(id);
                      selectNode(id, inspector, true);
                      setTimeout(() => graphRef.current?.focus([id]), 60);
                    }}
                    nodeName={(id) => nodeById.get(id)?.name ?? null}
                  />
                ) : inspectorNode ? (
                  <NodePanel
                    node={inspectorNode}
                    evidence={nodeDetails.data?.evidence}
                    hiddenEvidence={nodeDetails.data?.hiddenEvidence ?? 0}
                    loading={nodeDetails.isLoading}
                    error={errorOf(nodeDetails.error)}
                    onClose={() => {
                      setInspector(null);
                      setSelectedId(null);
                    }}
                    onOpenEvidence={(id) => {
                      setInspector({ kind: "evidence", id, claim: null, claimId: null, back: inspector });
                      setFocus({ kind: "evidence", id });
                    }}
                    onExpand={() => void expand(inspectorNode.id).then(() => graphRef.current?.focus([inspectorNode.id]))}
                    expanding={expanding === inspectorNode.id}
                    canExpand={!graph.complete}
                  />
                ) : (
                  <p className="p-3 text-sm text-slate-600">Loading…</p>
                )}
              </div>
            ) : null}
          </section>

          {/* Ask, answer/history, unknowns */}
          <section aria-label="Questions and answers" className="flex min-h-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
            <div className="border-b border-slate-200 p-3">
              <AskPanel
                value={question}
                onChange={setQuestion}
                onAsk={() => submit(question)}
                onStop={ask.stop}
                busy={ask.busy}
                canAsk={canAsk}
                examples={examples}
                stage={run?.stage ?? null}
                stagesSeen={run?.stagesSeen ?? []}
                inputRef={inputRef}
              />
            </div>
            <Tabs
              tab={tab}
              onTab={setTab}
              historyCount={history.data?.length}
            />
            <div
              className="min-h-0 flex-1 overflow-y-auto p-3"
              role="tabpanel"
              id={`panel-${tab}`}
              aria-labelledby={`tab-${tab}`}
            >
              {tab === "answer" ? (
                run ? (
                  <AnswerView
                    state={run}
                    knownIds={knownIds}
                    names={names}
                    activeStep={focus?.kind === "step" ? focus.n : null}
                    onStep={(n, t) => setFocus(n !== null && t ? { kind: "step", n, targets: t } : null)}
                    onSelectNode={(id) => {
                      selectNode(id, null, true);
                      setTimeout(() => graphRef.current?.focus([id]), 60);
                    }}
                  />
                ) : (
                  <div className="space-y-2 text-sm text-slate-700" data-testid="answer-empty">
                    <p>Ask a question about this case. Answers come only from evidence you are allowed to see, and every statement cites it.</p>
                    <p className="text-xs text-slate-600">
                      Select a citation to read the evidence and see its nodes in the graph. The unknowns below list what the answer cannot cover.
                    </p>
                  </div>
                )
              ) : (
                <HistoryPanel
                  entries={history.data}
                  loading={history.isLoading}
                  error={errorOf(history.error)}
                  onRetry={() => void history.refetch()}
                  onAskAgain={(q) => submit(q)}
                  onOpenEvidence={(id) => {
                    setInspector({ kind: "evidence", id, claim: null, claimId: null });
                    setFocus({ kind: "evidence", id });
                  }}
                  busy={ask.busy}
                />
              )}
            </div>
            <div className="max-h-[38%] shrink-0 overflow-y-auto border-t-2 border-slate-200 bg-slate-50/60 px-3 py-2">
              <UnknownsPanel key={run?.id ?? 0} answer={answer} pending={ask.busy} />
            </div>
          </section>
        </div>
      </div>
    </CitationContext.Provider>
  );
}

function ToolButton({ label, onClick, children, wide }: { label: string; onClick: () => void; children: React.ReactNode; wide?: boolean }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      className={cn(
        "inline-flex h-7 items-center justify-center rounded border border-slate-300 bg-white text-sm font-medium text-slate-800 hover:bg-slate-50",
        wide ? "px-2 text-xs" : "w-7",
      )}
    >
      {children}
    </button>
  );
}

function Tabs({ tab, onTab, historyCount }: { tab: "answer" | "history"; onTab: (t: "answer" | "history") => void; historyCount?: number }) {
  const tabs: Array<["answer" | "history", string]> = [
    ["answer", "Answer"],
    ["history", `Your questions${historyCount !== undefined ? ` (${historyCount})` : ""}`],
  ];
  return (
    <div role="tablist" aria-label="Answer or history" className="flex gap-1 border-b border-slate-200 px-3 pt-1.5">
      {tabs.map(([key, label]) => (
        <button
          key={key}
          id={`tab-${key}`}
          role="tab"
          type="button"
          aria-selected={tab === key}
          aria-controls={`panel-${key}`}
          tabIndex={tab === key ? 0 : -1}
          onClick={() => onTab(key)}
          onKeyDown={(e) => {
            if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
              e.preventDefault();
              const next = key === "answer" ? "history" : "answer";
              onTab(next);
              document.getElementById(`tab-${next}`)?.focus();
            }
          }}
          className={cn(
            "-mb-px border-b-2 px-2 pb-1.5 text-sm",
            tab === key ? "border-blue-700 font-semibold text-blue-900" : "border-transparent text-slate-600 hover:text-slate-900",
          )}
          data-testid={`tab-${key}`}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
