-- Evidence from documents (issue 17): originals, their regularised text, who may ingest.

-- Per-membership permissions granted by an admin of the tenant; 'ingest' lets an investigator add evidence to the case.
ALTER TABLE "case_member" ADD COLUMN "permissions" TEXT[] NOT NULL DEFAULT '{}';

-- Evidence ingested without an analysis license: stays invisible to analysis until licensed (no use is allowed).
INSERT INTO "license" ("id", "name", "allows") VALUES ('UNLICENSED', 'No license given at ingest (not visible to analysis)', '{}')
ON CONFLICT ("id") DO NOTHING;

-- One ingested document of a case. The original is kept content-addressed (SHA-256) in the data folder's originals
-- store; `text` is the regularised text that evidence offsets point into, `structure` its sections → paragraphs with
-- pages and offsets. Markings are the document's (every evidence item, node and edge made from it carries them).
CREATE TABLE "document" (
  "case_id"        TEXT NOT NULL REFERENCES "case"("id") ON DELETE CASCADE,
  "id"             TEXT NOT NULL,
  "tenant_id"      TEXT NOT NULL REFERENCES "tenant"("id"),
  "sha256"         TEXT NOT NULL CHECK ("sha256" ~ '^[0-9a-f]{64}$'),
  "name"           TEXT NOT NULL,
  "kind"           TEXT NOT NULL,
  "media_type"     TEXT NOT NULL,
  "size"           BIGINT NOT NULL,
  "pages"          INTEGER,
  "parent_id"      TEXT,
  "classification" "Classification" NOT NULL,
  "need_to_know"   TEXT[] NOT NULL DEFAULT '{}',
  "license_id"     TEXT NOT NULL REFERENCES "license"("id"),
  "source_system"  TEXT NOT NULL,
  "collected_at"   TIMESTAMPTZ(3) NOT NULL,
  "evidence_type"  TEXT NOT NULL,
  "metadata"       JSONB NOT NULL DEFAULT '{}'::jsonb,
  "text"           TEXT NOT NULL,
  "structure"      JSONB NOT NULL,
  "counts"         JSONB NOT NULL,
  "uploaded_by"    TEXT NOT NULL,
  "created_at"     TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("case_id", "id"),
  CONSTRAINT "document_need_to_know_readable" CHECK (array_position("need_to_know", NULL) IS NULL)
);
CREATE UNIQUE INDEX "document_case_sha256_idx" ON "document" ("case_id", "sha256");

-- Nodes and edges a generative model proposed from a document (issue 17). They wait for an investigator's decision and
-- are never part of the graph until accepted; accepting one writes the node or edge (marked like the document) and a
-- ledger entry. `body`: a node's ref, label, name and properties, or an edge's endpoints (an existing node id or the
-- ref of another proposal of the same document) and type.
CREATE TABLE "graph_proposal" (
  "case_id"        TEXT NOT NULL REFERENCES "case"("id") ON DELETE CASCADE,
  "id"             TEXT NOT NULL,
  "tenant_id"      TEXT NOT NULL REFERENCES "tenant"("id"),
  "document_id"    TEXT NOT NULL,
  "kind"           TEXT NOT NULL CHECK ("kind" IN ('node', 'edge')),
  "body"           JSONB NOT NULL,
  "evidence_ids"   TEXT[] NOT NULL,
  "classification" "Classification" NOT NULL,
  "need_to_know"   TEXT[] NOT NULL DEFAULT '{}',
  "model"          TEXT NOT NULL,
  "status"         TEXT NOT NULL DEFAULT 'pending' CHECK ("status" IN ('pending', 'accepted', 'rejected')),
  "graph_id"       TEXT,
  "created_at"     TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "decided_by"     TEXT,
  "decided_at"     TIMESTAMPTZ(3),
  PRIMARY KEY ("case_id", "id"),
  CONSTRAINT "graph_proposal_need_to_know_readable" CHECK (array_position("need_to_know", NULL) IS NULL)
);
CREATE INDEX "graph_proposal_pending_idx" ON "graph_proposal" ("case_id", "status");
