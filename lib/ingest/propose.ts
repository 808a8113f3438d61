// Graph proposals from a document (issue 17): with a generative model configured, the model reads the document's
// evidence items and proposes new nodes and edges (structured output, temperature 0). Proposals are checked here —
// shapes, caps, endpoints that exist, citations of the document's own items — and then wait for an investigator to
// accept them; nothing is added to the graph silently. Pure: the model comes through the AnswerModel port.
import { z } from "zod";
import type { AnswerModel } from "../ports";
import { foldName } from "./link";

export const PROPOSE_PROMPT_VERSION = "graph_propose_v1";
export const MAX_PROPOSED_NODES = 25;
export const MAX_PROPOSED_EDGES = 50;
/** How much of the document the model reads (whole evidence items, in order, up to this many characters). */
export const PROPOSE_MAX_CHARS = 16_000;

const LABEL = /^[A-Z][A-Za-z]{1,30}$/;
const TYPE = /^[A-Z][A-Z0-9_]{1,40}$/;

export const proposalOutputSchema = z.object({
  nodes: z.array(
    z.object({
      ref: z.string().min(1).max(40),
      label: z.string(),
      name: z.string(),
      properties: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
      evidence: z.array(z.string()).min(1),
    }),
  ),
  edges: z.array(
    z.object({
      source: z.string().min(1),
      target: z.string().min(1),
      type: z.string(),
      evidence: z.array(z.string()).min(1),
    }),
  ),
});
export type ProposalOutput = z.infer<typeof proposalOutputSchema>;

/** An endpoint of a proposed edge: a node the case has, or another proposal of the same document (by its ref). */
export type Endpoint = { node: string } | { ref: string };

export interface NodeProposal {
  kind: "node";
  ref: string;
  label: string;
  name: string;
  properties: Record<string, string | number | boolean>;
  evidence: string[];
}

export interface EdgeProposal {
  kind: "edge";
  source: Endpoint;
  target: Endpoint;
  type: string;
  evidence: string[];
}

export type Proposal = NodeProposal | EdgeProposal;

export interface ProposeInput {
  document: string;
  items: ReadonlyArray<{ id: string; text: string }>;
  nodes: ReadonlyArray<{ id: string; label: string; name: string }>;
}

export interface ProposeResult {
  proposals: Proposal[];
  /** Proposals the checks dropped, with why (counted in the ledger, shown to nobody as graph). */
  rejected: string[];
}

const SYSTEM =
  "You read evidence from one document of a criminal or security investigation and propose NEW graph nodes (people, " +
  "organisations, places, vehicles, phones, accounts, devices, events) and relationships that the text states " +
  "explicitly. Do not propose a node that already exists (the existing nodes are listed with their ids); connect to " +
  "them by id. Every proposal cites the evidence ids it comes from. Labels are CamelCase nouns (Person, Vehicle), " +
  "relationship types UPPER_SNAKE_CASE (MET_WITH, OWNS). Propose nothing you would have to guess. Output JSON only: " +
  '{"nodes":[{"ref","label","name","properties","evidence"}],"edges":[{"source","target","type","evidence"}]} where ' +
  "an edge endpoint is an existing node id or the ref of a node you propose.";

export function proposePrompt(input: ProposeInput): string {
  let used = 0;
  const items: string[] = [];
  for (const item of input.items) {
    if (used + item.text.length > PROPOSE_MAX_CHARS && items.length) break;
    items.push(`[${item.id}] ${item.text}`);
    used += item.text.length;
  }
  const nodes = input.nodes.map((n) => `${n.id} (${n.label}): ${n.name}`).join("\n");
  return `Document: ${input.document}\n\nExisting nodes:\n${nodes || "(none)"}\n\nEvidence:\n${items.join("\n\n")}`;
}

/** Asks the model once; output that does not parse or match the schema gives no proposals (reported as rejected). */
export async function proposeGraph(model: AnswerModel, input: ProposeInput): Promise<ProposeResult> {
  const prompt = proposePrompt(input);
  const { text } = await model.generate({
    promptVersion: PROPOSE_PROMPT_VERSION,
    system: SYSTEM,
    prompt,
    context: null,
    question: `Propose graph nodes and edges from ${input.document}`,
    attempt: 1,
    schema: proposalOutputSchema,
  });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { proposals: [], rejected: ["the model's output is not JSON"] };
  }
  const parsed = proposalOutputSchema.safeParse(raw);
  if (!parsed.success) return { proposals: [], rejected: ["the model's output does not match the proposal schema"] };
  return checkProposals(parsed.data, input);
}

/** The checks every proposal passes before it is stored for review. */
export function checkProposals(out: ProposalOutput, input: ProposeInput): ProposeResult {
  const items = new Set(input.items.map((i) => i.id));
  const existing = new Set(input.nodes.map((n) => n.id));
  const existingNames = new Set(input.nodes.map((n) => foldName(n.name).trim()));
  const rejected: string[] = [];
  const proposals: Proposal[] = [];
  const refs = new Set<string>();
  const cites = (evidence: string[]) => [...new Set(evidence)].filter((e) => items.has(e));
  for (const n of out.nodes) {
    const name = n.name.replace(/\s+/g, " ").trim();
    const evidence = cites(n.evidence);
    if (refs.size >= MAX_PROPOSED_NODES) rejected.push(`node ${n.ref}: over ${MAX_PROPOSED_NODES} proposed nodes`);
    else if (!LABEL.test(n.label)) rejected.push(`node ${n.ref}: label "${n.label.slice(0, 40)}" is not a CamelCase noun`);
    else if (!name || name.length > 200 || /[\u0000-\u001f\u007f]/.test(name)) rejected.push(`node ${n.ref}: no usable name`);
    else if (refs.has(n.ref) || existing.has(n.ref)) rejected.push(`node ${n.ref}: the ref is taken`);
    else if (existingNames.has(foldName(name))) rejected.push(`node ${n.ref}: "${name}" is already a node of the case`);
    else if (!evidence.length) rejected.push(`node ${n.ref}: cites none of this document's evidence`);
    else {
      refs.add(n.ref);
      proposals.push({ kind: "node", ref: n.ref, label: n.label, name, properties: n.properties ?? {}, evidence });
    }
  }
  const endpoint = (v: string): Endpoint | null => (refs.has(v) ? { ref: v } : existing.has(v) ? { node: v } : null);
  let edges = 0;
  for (const e of out.edges) {
    const source = endpoint(e.source);
    const target = endpoint(e.target);
    const evidence = cites(e.evidence);
    if (edges >= MAX_PROPOSED_EDGES) rejected.push(`edge ${e.source} → ${e.target}: over ${MAX_PROPOSED_EDGES} proposed edges`);
    else if (!source || !target) rejected.push(`edge ${e.source} → ${e.target}: an endpoint is neither a node nor a proposal`);
    else if (e.source === e.target) rejected.push(`edge ${e.source} → ${e.target}: a loop`);
    else if (!TYPE.test(e.type)) rejected.push(`edge ${e.source} → ${e.target}: type "${e.type.slice(0, 40)}" is not UPPER_SNAKE_CASE`);
    else if (!evidence.length) rejected.push(`edge ${e.source} → ${e.target}: cites none of this document's evidence`);
    else {
      edges++;
      proposals.push({ kind: "edge", source, target, type: e.type, evidence });
    }
  }
  return { proposals, rejected };
}
