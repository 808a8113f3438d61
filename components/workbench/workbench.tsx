"use client";
// The case workbench: the graph (left) with an inspector for a node or an evidence item below it, and the ask panel,
// the answer or the question history, and the unknowns (right). Everything shown came from the server already
// filtered for this user; this component only arranges it.
import Link from "next/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { AskPanel } from "@/components/answer/ask-panel";
import { AnswerView, type GraphNames } from "@/components/answer/answer-view";
import { CitationContext, type CitationApi } from "@/components/answer/citation-text";
import { HistoryPanel } from "@/components/answer/history-panel";
import { ThreadsPanel, type ThreadActions } from "@/components/answer/threads-panel";
import { HeldAnswers } from "@/components/answer/held-answers";
import { CaseNextSteps } from "@/components/answer/next-steps";
import { plural } from "@/components/answer/format";
import { UnknownsPanel } from "@/components/answer/unknowns-panel";
import { useAskStream } from "@/components/answer/use-ask";
import { CaseGraph, type CaseGraphHandle } from "@/components/case-graph/case-graph";
import { Legend } from "@/components/case-graph/legend";
import { NodePanel } from "@/components/case-graph/node-panel";
import { NodeSearch } from "@/components/case-graph/node-search";
import { EvidencePanel } from "@/components/evidence/evidence-panel";
import { errorOf, unwrap } from "@/components/providers";
import { Button, ClassificationBadge, cn } from "@/components/ui";
import type { CaseGraphView, EvidenceView, ExampleQuestion, VisibleCounts } from "@/lib/domain/workbench-views";
import { askStream } from "@/app/(workbench)/cases/[caseId]/actions";
import {
  expandNode,
  findNodes,
  loadCaseGraph,
  loadEvidence,
  loadHistory,
  loadNodeDetails,
  loadThread,
  loadThreads,
} from "@/app/(workbench)/cases/[caseId]/workbench-actions";
import { closeThreadAction, renameThreadAction } from "@/app/(workbench)/cases/[caseId]/thread-actions";
import { useGraphData } from "./use-graph-data";
import { highlightOf, type Focus } from "./highlight";
import { useGraphFocus } from "./use-graph-focus";
import { useCitedEvidence } from "./use-cited-evidence";
import { Tabs, type WorkbenchTab } from "./tabs";
import { ToolButton } from "./tool-button";
import { AddEvidencePanel, type IngestOptions } from "@/components/evidence/add-evidence";
import { useRouter } from "next/navigation";
import { SafeText } from "@/components/ui/safe-text";

type Inspector =
  | { kind: "node"; id: string; back?: Inspector }
  | { kind: "evidence"; id: string; claim: string | null; claimId: string | null; back?: Inspector };

export interface CaseInfo {
  id: string;
  title: string;
  classification: string;
  status: string;
  tenantName: string;
}

declare global {
  interface Window {
    /** Set by the UI bench (bench/graph-ui.ts) before the page loads, to ask for the timing below. */
    __casegraphBench?: boolean;
    /** performance.now() when the graph first became interactive (written only for the bench). */
    __casegraphGraphReadyAt?: number;
  }
}

export function Workbench({
  caseInfo,
  initialGraph,
  examples,
  evidenceCounts,
  canAsk,
  ingest,
}: {
  caseInfo: CaseInfo;
  initialGraph: CaseGraphView;
  examples: ExampleQuestion[];
  evidenceCounts: { visible: VisibleCounts["evidence"]; hidden: VisibleCounts["evidence"] };
  canAsk: boolean;
  /** The "Add evidence" panel's options; null when the user may not add evidence to this case (issue 17). */
  ingest?: IngestOptions | null;
}) {
  const caseId = caseInfo.id;
  const qc = useQueryClient();
  const graphRef = useRef<CaseGraphHandle>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  const { graph, nodes, edges, nodeById, edgeById, labelCounts, hiddenLabels, setHiddenLabels, expand, expanding } = useGraphData(
    caseId,
    initialGraph,
    {
      loadCaseGraph,
      expandNode,
    },
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
  const focusSoon = useGraphFocus(graphRef);
  /** Selects a node named somewhere else (search, evidence, an answer), loading it first if it is not on screen. */
  const showNode = useCallback(
    (id: string, from?: Inspector | null, keepHighlight = false) => {
      if (!nodeById.has(id)) void expand(id);
      selectNode(id, from, keepHighlight);
      focusSoon([id]);
    },
    [nodeById, expand, selectNode, focusSoon],
  );

  // ---- asking
  const [question, setQuestion] = useState("");
  const [tab, setTab] = useState<WorkbenchTab>("answer");
  const [adding, setAdding] = useState(false);
  const router = useRouter();
  // The thread the next question continues (issue 18): null asks in a new thread; "Follow up" sets it.
  const [followUp, setFollowUp] = useState<string | null>(null);
  const ask = useAskStream(caseId, askStream, () => {
    void qc.invalidateQueries({ queryKey: ["history", caseId] });
    void qc.invalidateQueries({ queryKey: ["threads", caseId] });
  });
  const run = ask.state;
  const response = run?.response ?? null;
  const rawContext = response?.rawContext ?? run?.failure?.rawContext ?? null;
  const answer = response?.answer ?? run?.failure?.answer ?? null;
  const submit = (q: string, threadId: string | null = activeThread) => {
    const text = q.trim();
    if (!text) return;
    setQuestion(text);
    setTab("answer");
    setFocus(null);
    ask.ask(text, threadId);
  };
  const continueThread = (threadId: string) => {
    setFollowUp(threadId);
    setQuestion("");
    setTab("answer");
    inputRef.current?.focus();
  };

  const { knownIds, cited } = useCitedEvidence(caseId, response, loadEvidence);

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
  const threads = useQuery({ queryKey: ["threads", caseId], queryFn: () => unwrap(loadThreads({ caseId })) });
  const threadActions: ThreadActions = useMemo(() => ({ loadThread, rename: renameThreadAction, close: closeThreadAction }), []);
  const followUpThread = followUp ? threads.data?.find((t) => t.id === followUp) : undefined;
  // A thread closed (here or elsewhere) is not continued: the next question starts a new one.
  const activeThread = followUpThread?.closed ? null : followUp;
  const followUpTitle = followUpThread?.title ?? null;

  // ---- what is highlighted in the graph
  const highlight = useMemo(() => {
    const evidenceItem = (id: string) => (evidenceQuery.data && evidenceQuery.data.id === id ? evidenceQuery.data : cited.data?.get(id));
    return highlightOf(focus, { edgeById, rawContext, evidenceItem });
  }, [focus, evidenceQuery.data, cited.data, rawContext, edgeById]);

  // Bring highlighted nodes into view; on a partial graph, load the ones not on screen yet.
  const highlightKey = highlight ? [...highlight.nodes].sort().join(" ") : "";
  useEffect(() => {
    if (!highlightKey) return;
    const ids = highlightKey.split(" ");
    const missing = ids.filter((id) => !nodeById.has(id));
    focusSoon(ids, () => {
      if (missing.length && !graph.complete) for (const id of missing.slice(0, 5)) void expand(id);
    });
    // nodeById changes as neighbourhoods arrive; focusing again then is wanted.
  }, [highlightKey, nodeById, graph.complete, expand, focusSoon]);

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

  // The UI bench (bench/graph-ui.ts) sets window.__casegraphBench before the page loads; nothing else writes to window.
  const onReady = useCallback((at: number) => {
    if (window.__casegraphBench) window.__casegraphGraphReadyAt = at;
  }, []);

  const inspectorNode =
    inspector?.kind === "node"
      ? ((nodeDetails.data?.node.id === inspector.id ? nodeDetails.data.node : nodeById.get(inspector.id)) ?? null)
      : null;
  const hiddenGraph = graph.hidden.nodes + graph.hidden.edges;

  return (
    <CitationContext.Provider value={citationApi}>
      <div className="flex h-[calc(100vh-7rem)] min-h-[600px] flex-col gap-3" data-testid="workbench">
        <header className="flex flex-wrap items-end justify-between gap-x-4 gap-y-1">
          <div className="min-w-0">
            <p className="text-xs text-slate-600">
              <Link href="/cases" className="text-blue-800 hover:underline">
                Cases
              </Link>{" "}
              / {caseInfo.tenantName} · <span className="font-mono">{caseId}</span>
            </p>
            <h1 className="flex items-center gap-2 truncate text-xl font-semibold tracking-tight text-slate-900">
              <SafeText text={caseInfo.title} />
              <ClassificationBadge classification={caseInfo.classification} />
              <span className="text-xs font-normal uppercase text-slate-600">{caseInfo.status.toLowerCase()}</span>
            </h1>
          </div>
          {ingest ? (
            <Button size="sm" variant="secondary" onClick={() => setAdding(true)} data-testid="add-evidence-button">
              Add evidence
            </Button>
          ) : null}
          <p className="text-xs text-slate-700" data-testid="case-visibility">
            You can see {plural(graph.visible.nodes, "node")}, {plural(graph.visible.edges, "relationship")} and{" "}
            {plural(evidenceCounts.visible, "evidence item")}.
            {hiddenGraph || evidenceCounts.hidden ? (
              <span className="ml-1 text-slate-600">
                Hidden by policy:{" "}
                {[
                  graph.hidden.nodes ? plural(graph.hidden.nodes, "node") : "",
                  graph.hidden.edges ? plural(graph.hidden.edges, "relationship") : "",
                  evidenceCounts.hidden ? plural(evidenceCounts.hidden, "evidence item") : "",
                ]
                  .filter(Boolean)
                  .join(", ")}
                .
              </span>
            ) : null}
          </p>
        </header>
        {adding && ingest ? (
          <AddEvidencePanel caseId={caseId} options={ingest} onClose={() => setAdding(false)} onIngested={() => router.refresh()} />
        ) : null}

        <div className="grid min-h-0 flex-1 grid-cols-[minmax(0,1fr)_440px] gap-3 xl:grid-cols-[minmax(0,1fr)_500px]">
          {/* Graph and inspector */}
          <section
            aria-label="Case graph"
            className="flex min-h-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
          >
            <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-2 py-1.5">
              <NodeSearch
                nodes={nodes}
                complete={graph.complete}
                search={(q) => unwrap(findNodes({ caseId, query: q }))}
                onPick={(n) => showNode(n.id)}
              />
              <div className="ml-auto flex items-center gap-1" role="group" aria-label="Graph view">
                <ToolButton label="Zoom in" onClick={() => graphRef.current?.zoomBy(1.3)}>
                  +
                </ToolButton>
                <ToolButton label="Zoom out" onClick={() => graphRef.current?.zoomBy(1 / 1.3)}>
                  −
                </ToolButton>
                <ToolButton label="Fit the graph to the view" onClick={() => graphRef.current?.fit()} wide>
                  Fit
                </ToolButton>
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
                Showing the {plural(graph.nodes.length, "best-connected node")} of {graph.visible.nodes.toLocaleString("en-US")}. Search for
                a node or select one and choose “Show neighbours” to expand.
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
                    caseId={caseId}
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
                    onSelectNode={(id) => showNode(id, inspector, true)}
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
          <section
            aria-label="Questions and answers"
            className="flex min-h-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
          >
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
                thread={activeThread ? { id: activeThread, title: followUpTitle } : null}
                onLeaveThread={() => setFollowUp(null)}
              />
            </div>
            <Tabs tab={tab} onTab={setTab} historyCount={history.data?.length} />
            <div className="min-h-0 flex-1 overflow-y-auto p-3" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
              {tab === "answer" ? (
                run ? (
                  <AnswerView
                    caseId={caseId}
                    state={run}
                    knownIds={knownIds}
                    names={names}
                    activeStep={focus?.kind === "step" ? focus.n : null}
                    onStep={(n, t) => setFocus(n !== null && t ? { kind: "step", n, targets: t } : null)}
                    onSelectNode={(id) => showNode(id, null, true)}
                    onFollowUp={canAsk ? continueThread : undefined}
                  />
                ) : (
                  <div className="space-y-2 text-sm text-slate-700" data-testid="answer-empty">
                    <p>
                      Ask a question about this case. Answers come only from evidence you are allowed to see, and every statement cites it.
                    </p>
                    <p className="text-xs text-slate-600">
                      Select a citation to read the evidence and see its nodes in the graph. The unknowns below list what the answer cannot
                      cover.
                    </p>
                  </div>
                )
              ) : tab === "steps" ? (
                <CaseNextSteps caseId={caseId} />
              ) : (
                <>
                  <HeldAnswers caseId={caseId} />
                  <ThreadsPanel
                    caseId={caseId}
                    threads={threads.data}
                    loading={threads.isLoading}
                    error={errorOf(threads.error)}
                    onRetry={() => void threads.refetch()}
                    actions={threadActions}
                    activeThreadId={activeThread}
                    onFollowUp={(t) => continueThread(t.id)}
                    busy={ask.busy || !canAsk}
                  />
                  <h2 className="pt-3 text-xs font-semibold uppercase tracking-wide text-slate-600">All your questions</h2>
                  <HistoryPanel
                    entries={history.data}
                    loading={history.isLoading}
                    error={errorOf(history.error)}
                    onRetry={() => void history.refetch()}
                    onAskAgain={(q) => submit(q, null)}
                    onOpenEvidence={(id) => {
                      setInspector({ kind: "evidence", id, claim: null, claimId: null });
                      setFocus({ kind: "evidence", id });
                    }}
                    busy={ask.busy}
                  />
                </>
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
