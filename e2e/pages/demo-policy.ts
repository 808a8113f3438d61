// What each demo user may see, computed in the test from the demo bundle (prisma/demo/workspace.json) with the
// product's own policy functions (lib/domain/policy.ts) — so the leak check follows the data, not a hand-kept list.
import { readFileSync } from "node:fs";
import path from "node:path";
import { denialReason, evidenceDenialReason, visibleGraph, type Viewer } from "../../lib/domain/policy";
import type { Classification, LicenseUse } from "../../lib/domain/markings";

interface BundleNode {
  id: string;
  label: string;
  properties?: Record<string, unknown>;
  classification?: string;
  needToKnow?: string[];
}
interface BundleEdge {
  id?: string;
  source: string;
  target: string;
  type: string;
  properties?: Record<string, unknown>;
  classification?: string;
  needToKnow?: string[];
}
interface BundleEvidence {
  id: string;
  type: string;
  content: string;
  sourceSystem: string;
  classification: string;
  needToKnow?: string[];
  license: string;
  tenant?: string;
  nodes: string[];
}
interface BundleCase {
  id: string;
  tenant: string;
  title: string;
  classification: string;
  members: string[];
  nodes: BundleNode[];
  edges: BundleEdge[];
  evidence: BundleEvidence[];
}
interface Bundle {
  users: Array<{ email: string; tenant: string; clearance: string; needToKnow?: string[] }>;
  licenses: Array<{ id: string; allows: string[] }>;
  cases: BundleCase[];
}

// Specs run from the repository root (as the other fixtures assume).
const ROOT = path.resolve(".");
export const bundle: Bundle = JSON.parse(readFileSync(path.join(ROOT, "prisma/demo/workspace.json"), "utf8"));
export const questions: Record<
  string,
  Array<{
    question: string;
    answeredBy: string[];
    unanswerable?: boolean;
    visibleTo?: Record<string, { visible: string[]; hidden: number }>;
  }>
> = JSON.parse(readFileSync(path.join(ROOT, "prisma/demo/questions.json"), "utf8"));

export function viewerOf(email: string): Viewer {
  const u = bundle.users.find((x) => x.email === email);
  if (!u) throw new Error(`no demo user ${email}`);
  // The user id is not part of any policy decision; the email stands in for it.
  return { userId: email, tenantId: u.tenant, clearance: u.clearance as Classification, needToKnow: u.needToKnow ?? [] };
}

export function caseOf(id: string): BundleCase {
  const c = bundle.cases.find((x) => x.id === id);
  if (!c) throw new Error(`no demo case ${id}`);
  return c;
}

const marking = (c: BundleCase, item: { classification?: string; needToKnow?: string[] }) => ({
  tenantId: c.tenant,
  classification: (item.classification ?? c.classification) as Classification,
  needToKnow: item.needToKnow ?? [],
});

export const nodeName = (n: BundleNode) => String(n.properties?.name ?? n.id);
export const edgeId = (e: BundleEdge) => e.id ?? `${e.source}:${e.type}:${e.target}`;

/** The case split into what `email` may see and what is hidden, by the product's policy functions. */
export function split(caseId: string, email: string) {
  const c = caseOf(caseId);
  const viewer = viewerOf(email);
  const licences = new Map(bundle.licenses.map((l) => [l.id, l.allows as LicenseUse[]]));
  const g = visibleGraph(
    viewer,
    c.nodes.map((n) => ({ ...n, ...marking(c, n) })),
    c.edges.map((e) => ({ ...e, id: edgeId(e), ...marking(c, e) })),
  );
  const visibleNodeIds = new Set(g.nodes.map((n) => n.id));
  const evidence = c.evidence.map((e) => ({
    e,
    hidden:
      evidenceDenialReason(viewer, { ...marking(c, e), tenantId: e.tenant ?? c.tenant, licenseUses: licences.get(e.license) ?? null }) !==
      null,
  }));
  return {
    case: c,
    visible: {
      nodes: c.nodes.filter((n) => visibleNodeIds.has(n.id)),
      edges: c.edges.filter((e) => g.edges.some((v) => v.id === edgeId(e))),
      evidence: evidence.filter((x) => !x.hidden).map((x) => x.e),
    },
    hidden: {
      nodes: c.nodes.filter((n) => denialReason(viewer, { ...marking(c, n) }) !== null),
      edges: c.edges.filter((e) => !g.edges.some((v) => v.id === edgeId(e))),
      evidence: evidence.filter((x) => x.hidden).map((x) => x.e),
    },
  };
}

/**
 * Strings that would only appear in the browser if something hidden from `email` leaked: for every hidden evidence item
 * a stretch of its text, and every hidden node's name and id — each kept only if it appears nowhere in what the user
 * may legitimately see (so a name that a visible document also mentions is not counted as a leak).
 */
export function canaries(caseId: string, email: string): Array<{ from: string; text: string }> {
  const s = split(caseId, email);
  const seen = [
    ...s.visible.evidence.map((e) => `${e.id} ${e.content} ${e.sourceSystem} ${e.type}`),
    ...s.visible.nodes.map((n) => `${n.id} ${n.label} ${JSON.stringify(n.properties ?? {})}`),
    ...s.visible.edges.map((e) => `${edgeId(e)} ${JSON.stringify(e.properties ?? {})}`),
    s.case.title,
  ]
    .join("\n")
    .toLowerCase();
  const out: Array<{ from: string; text: string }> = [];
  const add = (from: string, text: string) => {
    if (text.length >= 6 && !seen.includes(text.toLowerCase())) out.push({ from, text });
  };
  for (const e of s.hidden.evidence) {
    add(`${e.id} id`, e.id);
    // Three windows of its text (start, middle, end) of 40 characters at word boundaries.
    const words = e.content.split(/\s+/);
    for (const at of [0, Math.floor(words.length / 2) - 3, Math.max(0, words.length - 7)]) {
      add(`${e.id} text`, words.slice(Math.max(0, at), Math.max(0, at) + 6).join(" "));
    }
  }
  for (const n of s.hidden.nodes) {
    add(`${n.id} id`, n.id);
    add(`${n.id} name`, nodeName(n));
  }
  return out;
}
