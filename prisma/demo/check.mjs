#!/usr/bin/env node
// Validates the demo workspace bundle (prisma/demo/workspace.json) and its expected-answers file
// (prisma/demo/questions.json): JSON parses, ids unique, references resolve, markings valid, minimum sizes met.
// Prints counts per case and the marking distribution. No dependencies: `node prisma/demo/check.mjs`.
// Exit code 1 when anything is wrong.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const LEVELS = ['PUBLIC', 'CUI', 'CONFIDENTIAL', 'SECRET', 'TOP_SECRET', 'TS_SCI'];
const USES = ['INGEST', 'ANALYZE', 'INTERNAL_USE', 'EXPORT', 'FULL_ACCESS'];
const ROLES = ['investigator', 'supervisor', 'admin'];
const MINIMUMS = { 'case-harbor': [45, 65, 55], 'case-nightjar': [45, 65, 55] };
const PREFIX = { 'case-harbor': 'EV-C-', 'case-nightjar': 'EV-Y-', 'case-ledgerline': 'EV-F-' };
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

const errors = [];
const fail = (msg) => errors.push(msg);
const load = (name) => JSON.parse(readFileSync(join(here, name), 'utf8'));

const ws = load('workspace.json');
const questions = load('questions.json');

if (ws.format !== 'casegraph.workspace/v1') fail(`format is ${ws.format}`);
const unique = (list, what) => {
  const seen = new Set();
  for (const x of list) seen.has(x) ? fail(`duplicate ${what}: ${x}`) : seen.add(x);
  return seen;
};
const tags = (x, where) => {
  if (x.needToKnow === undefined) return;
  if (!Array.isArray(x.needToKnow) || x.needToKnow.some((t) => typeof t !== 'string' || !t)) fail(`${where}: needToKnow must be a list of tags`);
};
const marking = (x, where, required) => {
  if (x.classification === undefined) { if (required) fail(`${where}: classification missing`); }
  else if (!LEVELS.includes(x.classification)) fail(`${where}: unknown classification ${x.classification}`);
  tags(x, where);
};

const tenantIds = unique(ws.tenants.map((t) => t.id), 'tenant id');
ws.tenants.forEach((t) => t.name || fail(`tenant ${t.id}: name missing`));
const licIds = unique(ws.licenses.map((l) => l.id), 'license id');
const licById = Object.fromEntries(ws.licenses.map((l) => [l.id, l]));
// The policy rule of DESIGN.md step 4 (tenant is implied: questions only name members of the case's tenant).
const analysable = (ev) => licById[ev.license]?.allows.some((a) => a === 'ANALYZE' || a === 'INTERNAL_USE');
const visibleTo = (u, ev) => !!ev && LEVELS.indexOf(ev.classification) <= LEVELS.indexOf(u.clearance)
  && (!ev.needToKnow?.length || ev.needToKnow.some((t) => u.needToKnow.includes(t))) && analysable(ev);

for (const l of ws.licenses) l.allows.forEach((a) => USES.includes(a) || fail(`license ${l.id}: unknown use ${a}`));
unique(ws.users.map((u) => u.email), 'user email');
const userByEmail = Object.fromEntries(ws.users.map((u) => [u.email, u]));
for (const u of ws.users) {
  if (!tenantIds.has(u.tenant)) fail(`user ${u.email}: unknown tenant ${u.tenant}`);
  if (!u.roles?.length || u.roles.some((r) => !ROLES.includes(r))) fail(`user ${u.email}: bad roles`);
  if (!LEVELS.includes(u.clearance)) fail(`user ${u.email}: bad clearance`);
  tags(u, `user ${u.email}`);
  if (!u.name || !u.password) fail(`user ${u.email}: name or password missing`);
}

unique(ws.cases.map((c) => c.id), 'case id');
const rows = [];
for (const c of ws.cases) {
  const where = `case ${c.id}`;
  if (!tenantIds.has(c.tenant)) fail(`${where}: unknown tenant`);
  marking(c, where, true);
  if (!c.title || !c.description) fail(`${where}: title/description missing`);
  for (const m of c.members) {
    if (!userByEmail[m]) fail(`${where}: unknown member ${m}`);
    else if (userByEmail[m].tenant !== c.tenant) fail(`${where}: member ${m} is in another tenant`);
  }
  const nodeIds = unique(c.nodes.map((n) => n.id), `${where} node id`);
  for (const n of c.nodes) {
    if (!n.label) fail(`${where} node ${n.id}: label missing`);
    if (typeof n.properties?.name !== 'string' || !n.properties.name.trim()) fail(`${where} node ${n.id}: properties.name missing`);
    marking(n, `${where} node ${n.id}`, false);
  }
  const used = new Set();
  unique(c.edges.map((e) => e.id ?? `${e.source}:${e.type}:${e.target}`), `${where} edge id`);
  for (const e of c.edges) {
    const w = `${where} edge ${e.source}:${e.type}:${e.target}`;
    if (!nodeIds.has(e.source)) fail(`${w}: unknown source`);
    if (!nodeIds.has(e.target)) fail(`${w}: unknown target`);
    if (!/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(e.type)) fail(`${w}: type not UPPER_SNAKE_CASE`);
    marking(e, w, false);
    used.add(e.source); used.add(e.target);
  }
  unique(c.evidence.map((e) => e.id), `${where} evidence id`);
  for (const ev of c.evidence) {
    const w = `${where} evidence ${ev.id}`;
    if (PREFIX[c.id] && !ev.id.startsWith(PREFIX[c.id])) fail(`${w}: id should start with ${PREFIX[c.id]}`);
    if (!ev.type || !ev.sourceSystem) fail(`${w}: type/sourceSystem missing`);
    if (typeof ev.content !== 'string' || ev.content.length < 60 || ev.content.length > 700) fail(`${w}: content length ${ev.content?.length} outside 60-700`);
    marking(ev, w, true);
    if (!licIds.has(ev.license)) fail(`${w}: unknown license ${ev.license}`);
    if (ev.tenant !== undefined && !tenantIds.has(ev.tenant)) fail(`${w}: unknown tenant ${ev.tenant}`);
    if (!ISO_Z.test(ev.collectedAt) || Number.isNaN(Date.parse(ev.collectedAt))) fail(`${w}: collectedAt not ISO-8601 Z`);
    if (!ev.nodes?.length) fail(`${w}: links no node`);
    for (const n of ev.nodes ?? []) {
      if (!nodeIds.has(n)) fail(`${w}: unknown node ${n}`);
      used.add(n);
    }
  }
  for (const n of c.nodes) if (!used.has(n.id)) fail(`${where} node ${n.id}: not referenced by any edge or evidence`);
  const min = MINIMUMS[c.id];
  if (min) {
    const [mn, me, mv] = min;
    if (c.nodes.length < mn) fail(`${where}: ${c.nodes.length} nodes < ${mn}`);
    if (c.edges.length < me) fail(`${where}: ${c.edges.length} edges < ${me}`);
    if (c.evidence.length < mv) fail(`${where}: ${c.evidence.length} evidence < ${mv}`);
  }

  // distribution
  const count = (list, key) => list.reduce((m, x) => ((m[key(x)] = (m[key(x)] ?? 0) + 1), m), {});
  const pct = (n) => `${n} (${Math.round((100 * n) / c.evidence.length)}%)`;
  const byLevel = count(c.evidence, (e) => e.classification);
  const byTag = {};
  for (const e of c.evidence) for (const t of e.needToKnow ?? []) byTag[t] = (byTag[t] ?? 0) + 1;
  const tagged = c.evidence.filter((e) => e.needToKnow?.length).length;
  const markedNodes = c.nodes.filter((n) => n.classification || n.needToKnow?.length).length;
  const markedEdges = c.edges.filter((e) => e.classification || e.needToKnow?.length).length;
  const notAnalysable = c.evidence.filter((e) => !analysable(e)).length;
  rows.push({ c, byLevel, byTag, tagged, markedNodes, markedEdges, notAnalysable, byLicense: count(c.evidence, (e) => e.license), byType: count(c.evidence, (e) => e.type), pct });
}

for (const [caseId, list] of Object.entries(questions)) {
  const c = ws.cases.find((x) => x.id === caseId);
  if (!c) { fail(`questions.json: unknown case ${caseId}`); continue; }
  const ids = new Set(c.evidence.map((e) => e.id));
  for (const q of list) {
    if (!q.question) fail(`questions.json ${caseId}: question text missing`);
    for (const id of [...q.answeredBy, ...(q.decisive ?? []), ...(q.neverVisible ?? [])]) if (!ids.has(id)) fail(`questions.json ${caseId}: unknown evidence ${id} in "${q.question}"`);
    if (q.minClearance !== null && !LEVELS.includes(q.minClearance)) fail(`questions.json ${caseId}: bad minClearance in "${q.question}"`);
    if (q.unanswerable && q.answeredBy.length) fail(`questions.json ${caseId}: unanswerable "${q.question}" lists evidence`);
    // visibleTo is derived from the markings; recompute it so an edit to workspace.json cannot leave it stale
    for (const [email, v] of Object.entries(q.visibleTo ?? {})) {
      const u = userByEmail[email];
      if (!u || !c.members.includes(email)) { fail(`questions.json ${caseId}: visibleTo names non-member ${email}`); continue; }
      const expected = q.answeredBy.filter((id) => visibleTo(u, c.evidence.find((e) => e.id === id)));
      if (expected.join() !== v.visible.join() || v.hidden !== q.answeredBy.length - expected.length)
        fail(`questions.json ${caseId}: visibleTo[${email}] for "${q.question}" is stale (expected ${expected.length} visible)`);
    }
  }
}

for (const { c, byLevel, byTag, tagged, markedNodes, markedEdges, notAnalysable, byLicense, byType, pct } of rows) {
  console.log(`\n${c.id} (${c.tenant}) "${c.title}" — members: ${c.members.join(', ')}`);
  console.log(`  nodes ${c.nodes.length} (marked ${markedNodes}), edges ${c.edges.length} (marked ${markedEdges}), evidence ${c.evidence.length}`);
  console.log(`  evidence by classification: ${LEVELS.filter((l) => byLevel[l]).map((l) => `${l} ${pct(byLevel[l])}`).join(', ')}`);
  console.log(`  evidence with need-to-know tags: ${pct(tagged)} — ${Object.entries(byTag).map(([t, n]) => `${t} ${n}`).join(', ')}`);
  console.log(`  evidence by license: ${Object.entries(byLicense).map(([l, n]) => `${l} ${n}`).join(', ')} (never analysable: ${notAnalysable})`);
  console.log(`  evidence by type: ${Object.entries(byType).map(([t, n]) => `${t} ${n}`).join(', ')}`);
}
for (const [caseId, list] of Object.entries(questions)) {
  console.log(`\nquestions.json ${caseId}: ${list.filter((q) => !q.unanswerable).length} answerable, ${list.filter((q) => q.unanswerable).length} unanswerable`);
}

if (errors.length) {
  console.error(`\n${errors.length} problem(s):`);
  for (const e of errors) console.error(`  - ${e}`);
  process.exit(1);
}
console.log('\nworkspace.json and questions.json are valid.');
