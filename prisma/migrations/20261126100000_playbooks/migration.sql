-- Suggested next steps (issue 16, seed 003): the playbook catalogue, the labels its filter reads (a case's type and
-- jurisdiction, a tenant's risk tolerance, a user's legal authority), and the proposals a supervisor decides.

-- How much risk a tenant accepts in a suggested step: a playbook whose risk level is above it is never suggested.
ALTER TABLE "tenant" ADD COLUMN "risk_tolerance" TEXT NOT NULL DEFAULT 'low'
  CHECK ("risk_tolerance" IN ('low', 'medium', 'high'));

-- A case's labels for the filter (lower-case; NULL: unlabelled, so only playbooks that name no case type or
-- jurisdiction fit it).
ALTER TABLE "case" ADD COLUMN "case_type" TEXT;
ALTER TABLE "case" ADD COLUMN "jurisdiction" TEXT;

-- The legal process a user may invoke (subpoena, warrant, court_order); unknown values grant nothing.
ALTER TABLE "user" ADD COLUMN "legal_authority" TEXT[] NOT NULL DEFAULT '{}';

-- Every change to a playbook takes the next revision; a catalogue's version is the highest revision in its scope.
CREATE SEQUENCE "playbook_revision_seq";

-- A playbook of the catalogue. owner: the tenant that maintains it, or '*' for a shared one (operators, bundles).
-- Ids are unique within a tenant's view of the catalogue (its own and the shared ones): see the trigger below.
-- `terms` are the description's lexical terms (lib/playbooks/catalogue.ts descriptionTerms), written with it.
CREATE TABLE "playbook" (
  "owner"              TEXT NOT NULL,
  "id"                 TEXT NOT NULL,
  "version"            TEXT NOT NULL CHECK (length(btrim("version")) > 0),
  "description"        TEXT NOT NULL CHECK (length(btrim("description")) > 0),
  "terms"              TEXT[] NOT NULL DEFAULT '{}',
  "case_types"         TEXT[] NOT NULL DEFAULT '{}',
  "jurisdictions"      TEXT[] NOT NULL DEFAULT '{}',
  "required_authority" TEXT NOT NULL,
  "min_clearance"      "Classification" NOT NULL,
  "risk_level"         TEXT NOT NULL,
  "need_to_know"       TEXT[] NOT NULL DEFAULT '{}',
  "active"             BOOLEAN NOT NULL DEFAULT true,
  "revision"           BIGINT NOT NULL DEFAULT nextval('playbook_revision_seq'),
  "created_at"         TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_at"         TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_by"         TEXT NOT NULL,
  PRIMARY KEY ("owner", "id")
);
CREATE INDEX "playbook_id_idx" ON "playbook" ("id");

CREATE FUNCTION casegraph_playbook_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A tenant's playbook may not share an id with a shared one (the model names playbooks by id alone).
  IF EXISTS (SELECT 1 FROM "playbook" p
              WHERE p.id = NEW.id AND p.owner <> NEW.owner AND (p.owner = '*' OR NEW.owner = '*')) THEN
    RAISE EXCEPTION 'playbook id % is taken by a shared or tenant playbook', NEW.id USING ERRCODE = 'unique_violation';
  END IF;
  IF TG_OP = 'UPDATE' THEN
    NEW.revision := nextval('playbook_revision_seq');
    NEW.updated_at := now();
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "playbook_write" BEFORE INSERT OR UPDATE ON "playbook" FOR EACH ROW EXECUTE FUNCTION casegraph_playbook_write();
-- Playbooks are retired (active = false), never deleted: the catalogue's version must move with every change.
CREATE FUNCTION casegraph_playbook_no_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'playbooks are retired (active = false), not deleted';
END $$;
CREATE TRIGGER "playbook_no_delete" BEFORE DELETE ON "playbook" FOR EACH ROW EXECUTE FUNCTION casegraph_playbook_no_delete();

-- A suggested step proposed for a case by an investigator, decided once by a supervisor of the tenant (with a note).
-- Casegraph executes nothing: a decision is only recorded (here and in the ledger).
CREATE TABLE "playbook_proposal" (
  "id"                    TEXT PRIMARY KEY,
  "tenant_id"             TEXT NOT NULL REFERENCES "tenant"("id"),
  "case_id"               TEXT NOT NULL REFERENCES "case"("id") ON DELETE CASCADE,
  "playbook_owner"        TEXT NOT NULL,
  "playbook_id"           TEXT NOT NULL,
  "playbook_version"      TEXT NOT NULL,
  "description"           TEXT NOT NULL,
  "reason"                TEXT,
  "citations"             TEXT[] NOT NULL DEFAULT '{}',
  "suggestion_request_id" TEXT,
  "proposed_by"           TEXT NOT NULL,
  "proposer_email"        TEXT NOT NULL,
  "status"                TEXT NOT NULL DEFAULT 'pending' CHECK ("status" IN ('pending', 'approved', 'rejected')),
  "created_at"            TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "decided_at"            TIMESTAMPTZ(3),
  "decided_by"            TEXT,
  "decider_email"         TEXT,
  "note"                  TEXT,
  CHECK (("status" = 'pending') = ("decided_at" IS NULL)),
  CHECK ("status" = 'pending' OR length(btrim(coalesce("note", ''))) > 0)
);
CREATE INDEX "playbook_proposal_tenant_idx" ON "playbook_proposal" ("tenant_id", "status", "created_at");
CREATE INDEX "playbook_proposal_case_idx" ON "playbook_proposal" ("case_id", "created_at");
-- One open proposal per playbook and case.
CREATE UNIQUE INDEX "playbook_proposal_pending_idx" ON "playbook_proposal" ("case_id", "playbook_owner", "playbook_id")
  WHERE "status" = 'pending';
