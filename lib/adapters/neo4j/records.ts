// Neo4j records → the port's records. Markings are read, never cast: a graph written by another tool may hold any
// value there (lib/domain/markings.ts readMarking turns what it cannot read into a denial).
import "server-only";
import type { Record as Neo4jRecord } from "neo4j-driver";
import { propertiesObject } from "../../domain/graph-contract";
import { readMarking } from "../../domain/markings";
import type { GraphEdgeRecord, GraphNodeRecord } from "../../ports";

export interface NodeMap {
  id: string;
  tenantId: string;
  label: string;
  name: string;
  properties: string | null;
  classification: unknown;
  needToKnow: unknown;
}

export function toNode(m: NodeMap): GraphNodeRecord {
  return {
    id: m.id,
    label: m.label,
    name: m.name,
    properties: propertiesObject(m.properties),
    // Another tool may have written anything here; readMarking turns what it cannot read into a denial.
    ...readMarking(m),
  };
}

export function toEdgeRecord(r: Neo4jRecord): GraphEdgeRecord {
  const m = r.get("edge") as Omit<NodeMap, "label" | "name"> & { type: string };
  return {
    id: m.id,
    source: r.get("source") as string,
    target: r.get("target") as string,
    type: m.type,
    properties: propertiesObject(m.properties),
    ...readMarking(m),
  };
}
