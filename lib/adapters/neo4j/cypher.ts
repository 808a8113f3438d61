// The Cypher catalogue of the Neo4j case-graph store: the data model, the schema statements and every query text.
//
// Data model (every name below is a fixed string in this file; data only ever travels as query parameters):
//   (:CaseNode {tenantId, caseId, id, label, name, nameLower, properties, classification, needToKnow,
//               tokens, searchText, scope, idKey, stamp})
//   (source:CaseNode)-[:EDGE {tenantId, caseId, id, type, properties, classification, needToKnow, idKey, stamp}]->(target)
//   (:CaseGraph {caseId, tenantId, state: "ready" | "writing", leaseUntil, updatedAt})   one per case held here
// The bundle's node label and edge type are properties, not Neo4j labels/types, so no Cypher is ever built from data.
// `properties` is the JSON text of the item's properties; `tokens` its search tokens (name, id, label), `searchText`
// the same tokens space-joined for the full-text index, `scope` a digest of tenant+case for that index, `idKey` the
// hex of the id's UTF-8 bytes so ORDER BY idKey is code point order (Cypher compares strings by UTF-16 unit).
//
// Schema (applied idempotently before first use): uniqueness of (caseId, id) for nodes and for relationships (a
// composite uniqueness constraint: NODE KEY needs Enterprise), uniqueness of CaseGraph.caseId, a range index on
// CaseNode(caseId, nameLower), and a full-text index (whitespace analyzer) on searchText + scope. A whole case is
// found through the (caseId, id) constraint's index: `caseId = $c AND id IS NOT NULL` is a prefix seek on it.
import "server-only";
import { createHash } from "node:crypto";
import type { CaseScope } from "../../ports";

export const SCHEMA_STATEMENTS = [
  "CREATE CONSTRAINT cg_case_node_key IF NOT EXISTS FOR (n:CaseNode) REQUIRE (n.caseId, n.id) IS UNIQUE",
  "CREATE CONSTRAINT cg_case_edge_key IF NOT EXISTS FOR ()-[r:EDGE]-() REQUIRE (r.caseId, r.id) IS UNIQUE",
  "CREATE CONSTRAINT cg_case_graph_key IF NOT EXISTS FOR (g:CaseGraph) REQUIRE g.caseId IS UNIQUE",
  "CREATE INDEX cg_case_node_name IF NOT EXISTS FOR (n:CaseNode) ON (n.caseId, n.nameLower)",
  "CREATE FULLTEXT INDEX cg_case_node_text IF NOT EXISTS FOR (n:CaseNode) ON EACH [n.searchText, n.scope] " +
    "OPTIONS { indexConfig: { `fulltext.analyzer`: 'whitespace', `fulltext.eventually_consistent`: false } }",
];
export const FULLTEXT_INDEX = "cg_case_node_text";

export const NODE_MAP = "n {.id, .tenantId, .label, .name, .properties, .classification, .needToKnow}";
export const EDGE_MAP = "r {.id, .tenantId, .type, .properties, .classification, .needToKnow}";
export const DELETE_BATCH = 2_000;
export const SCHEMA_WAIT_MS = 15_000;

// The read queries, as constants: the server caches plans by query text, and ensureSchema() compiles each once.
export const Q = {
  state: `OPTIONAL MATCH (g:CaseGraph {caseId: $caseId})
    RETURN g.tenantId AS tenantId, g.state AS state, coalesce(g.leaseUntil, 0) < timestamp() AS expired`,
  seedIds: `MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.id IN $ids AND n.tenantId = $tenantId RETURN ${NODE_MAP} AS node`,
  seedNames: `MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.nameLower IN $phrases AND n.tenantId = $tenantId
    RETURN ${NODE_MAP} AS node`,
  // The full-text index narrows to nodes of this case holding a whole group; the exact rule (every token of a group
  // among the node's tokens) and the rank are then computed from the stored token list.
  seedText: `CALL db.index.fulltext.queryNodes($index, $lucene) YIELD node AS n
    WHERE n.caseId = $caseId AND n.tenantId = $tenantId
    WITH n, size([g IN $groups WHERE all(t IN g WHERE t IN n.tokens)]) AS rank
    WHERE rank > 0
    RETURN ${NODE_MAP} AS node, rank
    ORDER BY rank DESC, n.idKey
    LIMIT $limit`,
  frontier: `MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.id IN $frontier AND n.tenantId = $tenantId
    MATCH (n)-[r:EDGE]-()
    WHERE r.caseId = $caseId AND r.tenantId = $tenantId
    WITH DISTINCT r
    RETURN startNode(r).id AS source, endNode(r).id AS target
    ORDER BY r.idKey
    LIMIT $limit`,
  nodesIn: `MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.id IN $ids AND n.tenantId = $tenantId
    RETURN ${NODE_MAP} AS node ORDER BY n.idKey`,
  edgesAmong: `MATCH (s:CaseNode) WHERE s.caseId = $caseId AND s.id IN $ids AND s.tenantId = $tenantId
    MATCH (s)-[r:EDGE]->(t:CaseNode)
    WHERE t.id IN $ids AND t.caseId = $caseId AND r.caseId = $caseId AND r.tenantId = $tenantId
    RETURN ${EDGE_MAP} AS edge, s.id AS source, t.id AS target
    ORDER BY r.idKey
    LIMIT $limit`,
  outlineNodes: `MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.id IS NOT NULL AND n.tenantId = $tenantId
    RETURN n {.id, .tenantId, .label, .name, .classification, .needToKnow} AS node ORDER BY n.idKey LIMIT $limit`,
  outlineEdges: `MATCH (s:CaseNode)-[r:EDGE]->(t:CaseNode)
    WHERE r.caseId = $caseId AND r.tenantId = $tenantId
    RETURN r {.id, .tenantId, .type, .classification, .needToKnow} AS edge, s.id AS source, t.id AS target
    ORDER BY r.idKey LIMIT $limit`,
  edgesByIds: `MATCH (s:CaseNode)-[r:EDGE]->(t:CaseNode)
    WHERE r.caseId = $caseId AND r.id IN $ids AND r.tenantId = $tenantId
    RETURN ${EDGE_MAP} AS edge, s.id AS source, t.id AS target
    ORDER BY r.idKey`,
} as const;

// A whole-graph scan: not in Q, so ensureSchema() does not run it at start.
// Readable = what readMarking accepts: a catalogue classification, a list of non-blank strings, a non-blank tenant.
// CASE keeps trim() away from values that are not strings (another tool may have written numbers or maps); coalesce
// makes a null anywhere (a missing property) count as unreadable.
export const UNREADABLE_MARKINGS = `CALL () {
      MATCH (n:CaseNode) WHERE n.id IS NOT NULL AND NOT coalesce(
        n.classification IN $canon AND n.tenantId IS :: STRING NOT NULL AND
        CASE WHEN n.tenantId IS :: STRING THEN trim(n.tenantId) <> '' ELSE false END AND
        CASE WHEN n.needToKnow IS :: LIST<STRING NOT NULL> NOT NULL THEN none(t IN n.needToKnow WHERE trim(t) = '') ELSE false END, false)
      RETURN count(n) AS nodes
    }
    CALL () {
      MATCH ()-[r:EDGE]->() WHERE r.id IS NOT NULL AND NOT coalesce(
        r.classification IN $canon AND r.tenantId IS :: STRING NOT NULL AND
        CASE WHEN r.tenantId IS :: STRING THEN trim(r.tenantId) <> '' ELSE false END AND
        CASE WHEN r.needToKnow IS :: LIST<STRING NOT NULL> NOT NULL THEN none(t IN r.needToKnow WHERE trim(t) = '') ELSE false END, false)
      RETURN count(r) AS edges
    }
    RETURN nodes, edges`;

/** The value of a node's `scope` property: a digest of tenant and case, one term for the full-text index. */
export function scopeKey(scope: CaseScope): string {
  return "s" + createHash("sha256").update(`${scope.tenantId}\u0000${scope.caseId}`).digest("hex").slice(0, 32);
}

/**
 * The Lucene query for the text seeds: this case's scope term AND, for some group, every token of it. Tokens never
 * contain a quote, a backslash or whitespace (they are separators), so each is safe as a quoted term.
 */
export function luceneQuery(scope: string, groups: readonly string[][]): string {
  const any = groups.map((g) => `(${g.map((t) => `searchText:"${t}"`).join(" AND ")})`).join(" OR ");
  return `scope:${scope} AND (${any})`;
}
