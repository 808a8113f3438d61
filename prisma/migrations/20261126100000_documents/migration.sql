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
