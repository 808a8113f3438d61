-- Casegraph initial schema. Hand-kept to match prisma/schema.prisma; applied offline by lib/adapters/prisma/migrate.ts.

CREATE TYPE "Classification" AS ENUM ('PUBLIC', 'CUI', 'CONFIDENTIAL', 'SECRET', 'TOP_SECRET', 'TS_SCI');
CREATE TYPE "LicenseUse" AS ENUM ('INGEST', 'ANALYZE', 'INTERNAL_USE', 'EXPORT', 'FULL_ACCESS');
CREATE TYPE "CaseStatus" AS ENUM ('OPEN', 'CLOSED', 'ARCHIVED');

CREATE TABLE "tenant" (
  "id" TEXT PRIMARY KEY,
  "name" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE "user" (
  "id" TEXT PRIMARY KEY,
  "email" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "email_verified" BOOLEAN NOT NULL DEFAULT false,
  "image" TEXT,
  "tenant_id" TEXT NOT NULL REFERENCES "tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  "roles" TEXT[] NOT NULL DEFAULT '{}',
  "clearance" "Classification" NOT NULL,
  "need_to_know" TEXT[] NOT NULL DEFAULT '{}',
  "active" BOOLEAN NOT NULL DEFAULT true,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "user_email_key" ON "user"("email");
CREATE INDEX "user_tenant_id_idx" ON "user"("tenant_id");

CREATE TABLE "session" (
  "id" TEXT PRIMARY KEY,
  "token" TEXT NOT NULL,
  "user_id" TEXT NOT NULL REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "ip_address" TEXT,
  "user_agent" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "session_token_key" ON "session"("token");
CREATE INDEX "session_user_id_idx" ON "session"("user_id");

CREATE TABLE "account" (
  "id" TEXT PRIMARY KEY,
  "account_id" TEXT NOT NULL,
  "provider_id" TEXT NOT NULL,
  "user_id" TEXT NOT NULL REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "access_token" TEXT,
  "refresh_token" TEXT,
  "id_token" TEXT,
  "access_token_expires_at" TIMESTAMPTZ(3),
  "refresh_token_expires_at" TIMESTAMPTZ(3),
  "scope" TEXT,
  "password" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "account_user_id_idx" ON "account"("user_id");

CREATE TABLE "verification" (
  "id" TEXT PRIMARY KEY,
  "identifier" TEXT NOT NULL,
  "value" TEXT NOT NULL,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "verification_identifier_idx" ON "verification"("identifier");

CREATE TABLE "api_token" (
  "id" TEXT PRIMARY KEY,
  "user_id" TEXT NOT NULL REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "name" TEXT NOT NULL,
  "token_hash" TEXT NOT NULL,
  "prefix" TEXT NOT NULL,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "revoked_at" TIMESTAMPTZ(3),
  "last_used_at" TIMESTAMPTZ(3),
  "created_by" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "api_token_token_hash_key" ON "api_token"("token_hash");
CREATE INDEX "api_token_user_id_idx" ON "api_token"("user_id");

CREATE TABLE "license" (
  "id" TEXT PRIMARY KEY,
  "name" TEXT NOT NULL,
  "allows" "LicenseUse"[] NOT NULL DEFAULT '{}',
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE "case" (
  "id" TEXT PRIMARY KEY,
  "tenant_id" TEXT NOT NULL REFERENCES "tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  "title" TEXT NOT NULL,
  "description" TEXT NOT NULL,
  "classification" "Classification" NOT NULL,
  "status" "CaseStatus" NOT NULL DEFAULT 'OPEN',
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "case_tenant_id_idx" ON "case"("tenant_id");

CREATE TABLE "case_member" (
  "case_id" TEXT NOT NULL REFERENCES "case"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "user_id" TEXT NOT NULL REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY ("case_id", "user_id")
);
CREATE INDEX "case_member_user_id_idx" ON "case_member"("user_id");

CREATE TABLE "graph_node" (
  "case_id" TEXT NOT NULL REFERENCES "case"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "id" TEXT NOT NULL,
  "tenant_id" TEXT NOT NULL,
  "label" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "properties" JSONB NOT NULL,
  "classification" "Classification" NOT NULL,
  "need_to_know" TEXT[] NOT NULL DEFAULT '{}',
  -- Seed-node search by name or id: a stored tsvector (computed once at write time) under a GIN index.
  "search" tsvector GENERATED ALWAYS AS (to_tsvector('simple', "name" || ' ' || "id" || ' ' || "label")) STORED,
  PRIMARY KEY ("case_id", "id")
);
CREATE INDEX "graph_node_search_idx" ON "graph_node" USING GIN ("search");
CREATE INDEX "graph_node_case_lower_name_idx" ON "graph_node"("case_id", lower("name"));

CREATE TABLE "graph_edge" (
  "case_id" TEXT NOT NULL REFERENCES "case"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "id" TEXT NOT NULL,
  "tenant_id" TEXT NOT NULL,
  "source" TEXT NOT NULL,
  "target" TEXT NOT NULL,
  "type" TEXT NOT NULL,
  "properties" JSONB NOT NULL,
  "classification" "Classification" NOT NULL,
  "need_to_know" TEXT[] NOT NULL DEFAULT '{}',
  PRIMARY KEY ("case_id", "id"),
  FOREIGN KEY ("case_id", "source") REFERENCES "graph_node"("case_id", "id") ON DELETE CASCADE,
  FOREIGN KEY ("case_id", "target") REFERENCES "graph_node"("case_id", "id") ON DELETE CASCADE
);
CREATE INDEX "graph_edge_case_id_source_idx" ON "graph_edge"("case_id", "source");
CREATE INDEX "graph_edge_case_id_target_idx" ON "graph_edge"("case_id", "target");

CREATE TABLE "evidence" (
  "case_id" TEXT NOT NULL REFERENCES "case"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "id" TEXT NOT NULL,
  "tenant_id" TEXT NOT NULL REFERENCES "tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  "type" TEXT NOT NULL,
  "content" TEXT NOT NULL CHECK (length(btrim("content")) > 0),
  "source_system" TEXT NOT NULL,
  "classification" "Classification" NOT NULL,
  "need_to_know" TEXT[] NOT NULL DEFAULT '{}',
  "license_id" TEXT NOT NULL REFERENCES "license"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  "collected_at" TIMESTAMPTZ(3) NOT NULL,
  "metadata" JSONB NOT NULL DEFAULT '{}',
  "node_ids" TEXT[] NOT NULL DEFAULT '{}',
  -- Full-text search reads this stored column through the GIN index; nothing calls to_tsvector per row at query time.
  "search" tsvector GENERATED ALWAYS AS (to_tsvector('english', "content")) STORED,
  PRIMARY KEY ("case_id", "id")
);
CREATE INDEX "evidence_search_idx" ON "evidence" USING GIN ("search");
CREATE INDEX "evidence_node_ids_idx" ON "evidence" USING GIN ("node_ids");
CREATE INDEX "evidence_case_id_collected_at_idx" ON "evidence"("case_id", "collected_at");

CREATE TABLE "ledger" (
  "seq" BIGINT PRIMARY KEY,
  "prev_hash" TEXT NOT NULL,
  "entry_hash" TEXT NOT NULL,
  "kind" TEXT NOT NULL,
  "payload" JSONB NOT NULL,
  "tenant_id" TEXT,
  "actor_id" TEXT,
  "case_id" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL
);
CREATE UNIQUE INDEX "ledger_entry_hash_key" ON "ledger"("entry_hash");
-- One successor per entry: two writers racing past the lock could never both link to the same head.
CREATE UNIQUE INDEX "ledger_prev_hash_key" ON "ledger"("prev_hash");
CREATE INDEX "ledger_tenant_id_seq_idx" ON "ledger"("tenant_id", "seq");
CREATE INDEX "ledger_case_id_seq_idx" ON "ledger"("case_id", "seq");
CREATE INDEX "ledger_actor_id_seq_idx" ON "ledger"("actor_id", "seq");
