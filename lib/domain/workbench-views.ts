// What the workbench sends to the browser. Every value of these shapes has passed the policy filter on the server for
// the signed-in user (lib/server/workbench/*); hidden items appear only as counts. Types only: safe to import from
// client components.
import type { StoredClassification } from "@/lib/domain/markings";

export type PropertyValue = string | number | boolean | null | PropertyValue[] | { [key: string]: PropertyValue };

export interface VisibleCounts {
  nodes: number;
  edges: number;
  evidence: number;
}

export interface CaseSummary {
  id: string;
  title: string;
  description: string;
  classification: StoredClassification;
  status: string;
  tenant: { id: string; name: string };
  visible: VisibleCounts;
  hidden: VisibleCounts;
  /** The newest ledger entry about this case (any member's request), ISO-8601; null when none. */
  lastActivityAt: string | null;
  /** The newest of the user's own questions on this case, ISO-8601; null when none. */
  myLastQuestionAt: string | null;
}

/** A node as the graph view needs it (lean: properties come with NodeDetails, when a node is opened). */
export interface GraphNodeView {
  id: string;
  label: string;
  name: string;
  classification: StoredClassification;
  /** Visible relationships of this node (in the whole visible graph, not only the part sent). */
  degree: number;
}

export interface GraphEdgeView {
  id: string;
  source: string;
  target: string;
  type: string;
  classification: StoredClassification;
}

export interface CaseGraphView {
  caseId: string;
  nodes: GraphNodeView[];
  edges: GraphEdgeView[];
  /** True when every visible node and edge is in `nodes`/`edges`; false when only an overview was sent. */
  complete: boolean;
  visible: { nodes: number; edges: number };
  hidden: { nodes: number; edges: number };
}

export interface NodeNeighbourhood {
  nodes: GraphNodeView[];
  edges: GraphEdgeView[];
  /** True when more visible neighbours exist than were sent. */
  truncated: boolean;
}

export interface EvidenceSummary {
  id: string;
  type: string;
  sourceSystem: string;
  classification: StoredClassification;
  collectedAt: string;
  excerpt: string;
}

export interface EvidenceView extends Omit<EvidenceSummary, "excerpt"> {
  content: string;
  /** Linked nodes the user may see (hidden links are left out). */
  nodeIds: string[];
  metadata: Record<string, PropertyValue>;
  /** Set when the item was made from an ingested document (issue 17): the viewer opens it at `page`. */
  source?: EvidenceSource;
  /**
   * Passages of `content` (offsets, in order) that read as instructions to an automated reader: withheld from every
   * model, shown to the investigator marked.
   */
  instructions: Array<{ start: number; end: number }>;
}

export interface NodeDetails {
  node: GraphNodeView & { properties: Record<string, PropertyValue> };
  evidence: EvidenceSummary[];
  /** Linked evidence the user may not see: a count only. */
  hiddenEvidence: number;
}

export interface HistoryEntry {
  seq: number;
  at: string;
  /** The question as asked; null when the ledger keeps only its hash (AUDIT_QUERY_MODE=hash) or it was erased. */
  question: string | null;
  responseType: string;
  errorCode: string | null;
  confidence: number | null;
  needsReview: boolean;
  /** Evidence cited then that the user may still see now. */
  citedEvidence: string[];
  /** Cited items no longer visible to the user (permissions changed since): a count only. */
  citedNoLongerVisible: number;
  /** Cited items revoked since (issue 15), each with its flag: "cites evidence revoked on … (reason)". */
  revokedCitations?: Array<{ evidenceId: string; revokedAt: string; reason: string; flag: string }>;
  context: { nodes: number; edges: number; evidence: number };
  /** Items hidden by policy at the time (counts only). */
  /** Null unless the tenant reports exact per-question counts. */
  hiddenByPolicy: number | null;
}

export interface ExampleQuestion {
  question: string;
  /** The visible node the question was built from. */
  nodeId: string;
}

/** Where an evidence item made from a document comes from (issue 17): the document, the page and the passage. */
export interface EvidenceSource {
  documentId: string;
  document: string;
  page?: number;
  /** Offsets into the document's regular text (text documents, PDFs). */
  start?: number;
  end?: number;
  /** Line of a CSV of call records. */
  line?: number;
  section?: string;
  /** Why the item is linked to each node the user may see: what matched, and how. */
  links: Array<{ node: string; kind: string; matched: string }>;
}

/** An ingested document as the viewer shows it, with the cited passage when one was asked for. */
export interface DocumentView {
  caseId: string;
  id: string;
  name: string;
  kind: string;
  mediaType: string;
  size: number;
  pages: number | null;
  classification: StoredClassification;
  needToKnow: string[];
  license: string;
  sourceSystem: string;
  collectedAt: string;
  evidenceType: string;
  uploadedBy: string;
  createdAt: string;
  /** E-mail headers, pages without a text layer, scripts found (never run). */
  metadata: Record<string, PropertyValue>;
  /** The regular text (not for PDFs, which are rendered from the original, nor call records). */
  text: string | null;
  passage: { evidenceId: string; page: number | null; start: number | null; end: number | null; line: number | null; text: string } | null;
  /** Call records: the lines around the cited one, as in the file. */
  lines: { first: number; text: string[] } | null;
}

/** One of the user's threads on a case (issue 18). */
export interface ThreadSummary {
  id: string;
  title: string;
  closed: boolean;
  createdAt: string;
  updatedAt: string;
  /** Turns recorded. */
  turns: number;
}

/**
 * An earlier turn as the user may see it NOW: claims, steps and unknowns resting on anything they can no longer see
 * say "no longer visible to you" (permissions lowered, evidence revoked since).
 */
export interface ThreadTurnView {
  turn: number;
  at: string;
  /** The question as asked; null when the ledger keeps only its hash or it was erased. */
  question: string | null;
  responseType: string;
  errorCode: string | null;
  /** The answer text, re-filtered, with citation markers of visible evidence only. */
  answerText: string;
  claims: Array<{ claimId: string; text: string; evidenceIds: string[]; support: string; hidden: boolean }>;
  unknowns: string[];
  confidence: number | null;
  needsReview: boolean;
  /** Visible evidence the turn cited. */
  citedEvidence: string[];
  /** Parts of the answer (claims, steps, unknowns) replaced because the user can no longer see what they rest on. */
  noLongerVisible: number;
  /** How a follow-up's references were read, with the names of entities the user may still see. */
  references: Array<{ phrase: string; name: string | null; turn: number }>;
}

export interface ThreadView {
  thread: ThreadSummary;
  turns: ThreadTurnView[];
}
