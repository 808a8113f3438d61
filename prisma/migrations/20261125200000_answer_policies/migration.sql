-- Answer policies (issue 14, seed 001): compiled policy bundles stored per tenant by their SHA-256, which one a tenant
-- enforces, and the review queue of answers held because enforcement escalated them.
CREATE TABLE "policy_bundle" (
  "tenant_id"      TEXT NOT NULL REFERENCES "tenant"("id"),
  "sha256"         TEXT NOT NULL CHECK ("sha256" ~ '^[0-9a-f]{64}$'),
  "bundle"         JSONB NOT NULL,
  -- The policies.jsonl it was compiled from, when it came from the admin editor or an upload (null for a CLI bundle).
  "policies"       TEXT,
  "policy_count"   INTEGER NOT NULL,
  "conflict_count" INTEGER NOT NULL,
  "created_by"     TEXT NOT NULL,
  "created_at"     TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("tenant_id", "sha256")
);

CREATE TABLE "tenant_answer_policy" (
  "tenant_id"     TEXT PRIMARY KEY REFERENCES "tenant"("id"),
  "active_sha256" TEXT,
  "changed_by"    TEXT NOT NULL,
  "changed_at"    TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  FOREIGN KEY ("tenant_id", "active_sha256") REFERENCES "policy_bundle"("tenant_id", "sha256")
);

CREATE TABLE "answer_review" (
  "id"            TEXT PRIMARY KEY,
  "tenant_id"     TEXT NOT NULL REFERENCES "tenant"("id"),
  "case_id"       TEXT NOT NULL,
  "asker_id"      TEXT NOT NULL,
  "asker_email"   TEXT,
  "request_id"    TEXT NOT NULL,
  "audit_id"      TEXT NOT NULL,
  "question"      TEXT NOT NULL,
  "bundle_sha256" TEXT NOT NULL,
  -- { answer, rawContext } of the held draft, and answer.compliance: never shown to the asker unless approved.
  "draft"         JSONB NOT NULL,
  "compliance"    JSONB NOT NULL,
  "status"        TEXT NOT NULL DEFAULT 'pending' CHECK ("status" IN ('pending', 'approved', 'rejected')),
  "created_at"    TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "decided_at"    TIMESTAMPTZ(3),
  "decided_by"    TEXT,
  "note"          TEXT,
  CHECK (("status" = 'pending') = ("decided_at" IS NULL))
);
CREATE INDEX "answer_review_tenant_status_idx" ON "answer_review" ("tenant_id", "status", "created_at");
CREATE INDEX "answer_review_asker_idx" ON "answer_review" ("asker_id", "case_id", "created_at");
