// Graph proposals (issue 17): after a document is written, a configured generative model may propose new nodes and
// edges from its evidence (lib/ingest/propose.ts checks them). They are stored pending — never part of the graph —
// with a ledger entry, and wait for an investigator who may add evidence to the case: accepting one writes the node
// or edge marked like its document (into Neo4j in the same unit of work when configured), links the node to the
// evidence it cites, and is a ledger entry; so is a rejection.
import "server-only";
import type { Actor } from "../../auth/actor";
import { CasegraphError } from "../../domain/failure-codes";
import { mayView } from "../../domain/policy";
import { readMarking, type Classification } from "../../domain/markings";
import type { AnswerModel } from "../../ports";
import type { Database } from "../../adapters/prisma/db";
import type { SqlSession } from "../../adapters/prisma/migrate";
import { appendInSession } from "../../adapters/prisma/ledger";
import { insertEdges, insertNodes, type EdgeRow, type GraphRows, type NodeRow } from "../../adapters/prisma/workspace";
import { mirroredGraphWrite } from "../../adapters/neo4j/sync";
import type { Neo4jGraphStore } from "../../adapters/neo4j/graph-store";
import { proposeGraph, type Endpoint, type Proposal } from "../../ingest/propose";
import { assertMayIngest } from "./authorize";

export const PROPOSED_KIND = "graph.proposals";
export const DECIDED_KIND = "graph.proposal.decide";

interface Marked {
  caseId: string;
  tenantId: string;
  documentId: string;
  classification: Classification;
  needToKnow: string[];
}

const actorOf = (a: Actor) => ({ id: a.userId, email: a.email, via: a.via, tenantId: a.tenantId });

/** Asks the model for proposals from a document just written and stores them pending; returns what happened. */
export async function proposeFromDocument(
  db: Database,
  model: AnswerModel,
  actor: Actor,
  doc: Marked & { name: string },
  items: ReadonlyArray<{ id: string; text: string }>,
): Promise<{ proposed: number; rejected: number }> {
  const nodes = await db.prisma.graphNode.findMany({
    where: { caseId: doc.caseId },
    select: { id: true, label: true, name: true },
    orderBy: { id: "asc" },
  });
  const { proposals, rejected } = await proposeGraph(model, { document: doc.name, items, nodes });
  await db.transaction(async (sql) => {
    await storeProposals(sql, doc, model.modelId, proposals);
    await appendInSession(sql, [
      {
        kind: PROPOSED_KIND,
        tenantId: doc.tenantId,
        actorId: actor.userId,
        caseId: doc.caseId,
        payload: {
          actor: actorOf(actor),
          caseId: doc.caseId,
          documentId: doc.documentId,
          model: model.modelId,
          proposed: { nodes: proposals.filter((p) => p.kind === "node").length, edges: proposals.filter((p) => p.kind === "edge").length },
          rejected: rejected.length,
        },
      },
    ]);
  });
  return { proposed: proposals.length, rejected: rejected.length };
}

async function storeProposals(sql: SqlSession, doc: Marked, model: string, proposals: readonly Proposal[]) {
  if (!proposals.length) return;
  const ids = proposals.map((_, i) => `PROP-${doc.documentId.slice(4)}-${String(i + 1).padStart(3, "0")}`);
  await sql.query(
    `INSERT INTO "graph_proposal" (case_id, id, tenant_id, document_id, kind, body, evidence_ids, classification, need_to_know, model)
    SELECT $1, r.id, $2, $3, r.kind, r.body::jsonb, string_to_array(r.evidence, chr(31)), $4::"Classification", $5::text[], $6
    FROM unnest($7::text[], $8::text[], $9::text[], $10::text[]) AS r(id, kind, body, evidence)
    ON CONFLICT (case_id, id) DO NOTHING`,
    [
      doc.caseId,
      doc.tenantId,
      doc.documentId,
      doc.classification,
      doc.needToKnow,
      model,
      ids,
      proposals.map((p) => p.kind),
      proposals.map(({ evidence: _e, kind: _k, ...body }) => JSON.stringify(body)),
      proposals.map((p) => p.evidence.join("\x1f")),
    ],
  );
}

interface Row {
  id: string;
  tenant_id: string;
  document_id: string;
  kind: "node" | "edge";
  body: Record<string, any>;
  evidence_ids: string[];
  classification: string;
  need_to_know: string[];
  model: string;
  status: string;
  graph_id: string | null;
}

const COLUMNS = `id, tenant_id, document_id, kind, body, evidence_ids, classification::text AS classification, need_to_know, model, status, graph_id`;

const visibleTo = (actor: Actor, r: Row) =>
  mayView(actor, readMarking({ tenantId: r.tenant_id, classification: r.classification, needToKnow: r.need_to_know }));

export interface ProposalView {
  id: string;
  documentId: string;
  kind: "node" | "edge";
  model: string;
  classification: string;
  evidence: string[];
  /** A node: what it would be. An edge: its endpoints as names (a proposal's name, or an existing node's). */
  label?: string;
  name?: string;
  properties?: Record<string, unknown>;
  type?: string;
  source?: string;
  target?: string;
}

/** The case's pending proposals this actor may decide and see (markings as their document's). */
export async function pendingProposals(db: Database, actor: Actor, caseId: string): Promise<ProposalView[]> {
  await assertMayIngest(db.prisma, actor, caseId);
  const { rows } = await db.transaction((sql) =>
    sql.query<Row>(`SELECT ${COLUMNS} FROM "graph_proposal" WHERE case_id = $1 AND status = 'pending' ORDER BY id`, [caseId]),
  );
  const visible = rows.filter((r) => visibleTo(actor, r));
  const refNames = new Map(visible.filter((r) => r.kind === "node").map((r) => [`${r.document_id}/${r.body.ref}`, String(r.body.name)]));
  const nodeIds = visible.flatMap((r) => (r.kind === "edge" ? [r.body.source?.node, r.body.target?.node] : [])).filter(Boolean) as string[];
  const nodes = await db.prisma.graphNode.findMany({
    where: { caseId, id: { in: nodeIds } },
    select: { id: true, name: true, tenantId: true, classification: true, needToKnow: true },
  });
  const nodeName = new Map(nodes.filter((n) => mayView(actor, readMarking(n))).map((n) => [n.id, n.name]));
  const endpoint = (r: Row, e: Endpoint) =>
    "node" in e ? (nodeName.get(e.node) ?? "a node you cannot see") : (refNames.get(`${r.document_id}/${e.ref}`) ?? `proposal ${e.ref}`);
  return visible.map((r) => ({
    id: r.id,
    documentId: r.document_id,
    kind: r.kind,
    model: r.model,
    classification: r.classification,
    evidence: r.evidence_ids,
    ...(r.kind === "node"
      ? { label: r.body.label, name: r.body.name, properties: r.body.properties ?? {} }
      : { type: r.body.type, source: endpoint(r, r.body.source), target: endpoint(r, r.body.target) }),
  }));
}

/** Accepts (writing the node or edge, marked like its document) or rejects one pending proposal. */
export async function decideProposal(
  db: Database,
  neo4j: Neo4jGraphStore | undefined,
  actor: Actor,
  caseId: string,
  proposalId: string,
  decision: "accept" | "reject",
): Promise<{ id: string; status: "accepted" | "rejected"; graphId: string | null }> {
  await assertMayIngest(db.prisma, actor, caseId);
  const run = (mirror?: (rows: GraphRows) => Promise<void>) =>
    db.transaction(async (sql) => {
      const [r] = (
        await sql.query<Row>(`SELECT ${COLUMNS} FROM "graph_proposal" WHERE case_id = $1 AND id = $2 FOR UPDATE`, [caseId, proposalId])
      ).rows;
      if (!r || !visibleTo(actor, r)) throw new CasegraphError("CG-INGEST-015");
      if (r.status !== "pending") throw new CasegraphError("CG-INGEST-016", `The proposal was already ${r.status}.`);
      const marking = { classification: r.classification as Classification, needToKnow: [...r.need_to_know].sort() };
      let graphId: string | null = null;
      if (decision === "accept") {
        const rows: GraphRows = { caseId, tenantId: r.tenant_id, nodes: [], edges: [] };
        if (r.kind === "node") {
          const node: NodeRow = {
            id: `prop-${r.id.slice(5).toLowerCase()}`,
            label: r.body.label,
            name: r.body.name,
            properties: { ...(r.body.properties ?? {}), name: r.body.name, proposedBy: r.model, proposal: r.id, documentId: r.document_id },
            ...marking,
          };
          await insertNodes(sql, caseId, r.tenant_id, [node]);
          // The evidence it was proposed from is about it.
          await sql.query(
            `UPDATE "evidence" SET node_ids = array_append(node_ids, $3) WHERE case_id = $1 AND id = ANY($2::text[]) AND NOT ($3 = ANY(node_ids))`,
            [caseId, r.evidence_ids, node.id],
          );
          rows.nodes.push(node);
          graphId = node.id;
        } else {
          const source = await resolveEndpoint(sql, caseId, r, r.body.source);
          const target = await resolveEndpoint(sql, caseId, r, r.body.target);
          const edge: EdgeRow = {
            id: `${source}:${r.body.type}:${target}`,
            source,
            target,
            type: r.body.type,
            properties: { proposedBy: r.model, proposal: r.id, documentId: r.document_id, evidence: r.evidence_ids },
            ...marking,
          };
          await insertEdges(sql, caseId, r.tenant_id, [edge]);
          rows.edges.push(edge);
          graphId = edge.id;
        }
        await mirror?.(rows);
      }
      const status = decision === "accept" ? "accepted" : "rejected";
      await sql.query(
        `UPDATE "graph_proposal" SET status = $3, graph_id = $4, decided_by = $5, decided_at = now() WHERE case_id = $1 AND id = $2`,
        [caseId, proposalId, status, graphId, actor.email],
      );
      await appendInSession(sql, [
        {
          kind: DECIDED_KIND,
          tenantId: r.tenant_id,
          actorId: actor.userId,
          caseId,
          payload: {
            actor: actorOf(actor),
            caseId,
            proposal: { id: r.id, kind: r.kind, documentId: r.document_id, model: r.model },
            decision: status,
            graphId,
            markings: marking,
          },
        },
      ]);
      return { id: r.id, status: status as "accepted" | "rejected", graphId };
    });
  if (decision === "accept" && neo4j) return (await mirroredGraphWrite(db, neo4j, [caseId], (mirror) => run(mirror))).result;
  return run();
}

async function resolveEndpoint(sql: SqlSession, caseId: string, r: Row, e: Endpoint): Promise<string> {
  if ("node" in e) {
    const found = await sql.query(`SELECT 1 FROM "graph_node" WHERE case_id = $1 AND id = $2`, [caseId, e.node]);
    if (!found.rows.length) throw new CasegraphError("CG-INGEST-016", `Node ${e.node} is no longer in the case.`);
    return e.node;
  }
  const { rows } = await sql.query<{ status: string; graph_id: string | null }>(
    `SELECT status, graph_id FROM "graph_proposal" WHERE case_id = $1 AND document_id = $2 AND kind = 'node' AND body->>'ref' = $3`,
    [caseId, r.document_id, e.ref],
  );
  if (rows[0]?.status !== "accepted" || !rows[0].graph_id) {
    throw new CasegraphError("CG-INGEST-016", `Accept the proposed node "${e.ref}" before an edge to it.`);
  }
  return rows[0].graph_id;
}
