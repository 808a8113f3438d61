-- Conversations (issue 18): threads of follow-up questions, per case AND user. A thread is found only by its id together
-- with its tenant, case and user, so another user's or another case's thread reads exactly like one that does not exist.
-- turn_count is the last turn number handed out: a turn reserves the next one atomically (UPDATE … RETURNING), so two
-- follow-ups sent at once get different numbers.
CREATE TABLE "thread" (
  "id"         TEXT PRIMARY KEY,
  "tenant_id"  TEXT NOT NULL REFERENCES "tenant"("id"),
  "case_id"    TEXT NOT NULL REFERENCES "case"("id") ON DELETE CASCADE,
  "user_id"    TEXT NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
  "title"      TEXT NOT NULL CHECK (length(btrim("title")) BETWEEN 1 AND 120),
  "closed_at"  TIMESTAMPTZ(3),
  "turn_count" INTEGER NOT NULL DEFAULT 0 CHECK ("turn_count" >= 0),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX "thread_owner_idx" ON "thread" ("tenant_id", "case_id", "user_id", "updated_at" DESC);

-- One row per finished turn: its ledger entry (seq, request and audit ids), what it was about and what it cited (ids
-- only; every later turn re-checks them through the policy), and the answer as delivered, which the thread view shows
-- re-filtered for the asker as they are then. The question text is not copied here: it is read from the ledger's
-- redactable part, so AUDIT_QUERY_MODE=hash and retention apply to threads too.
CREATE TABLE "thread_turn" (
  "thread_id"          TEXT NOT NULL REFERENCES "thread"("id") ON DELETE CASCADE,
  "turn"               INTEGER NOT NULL CHECK ("turn" >= 1),
  "request_id"         TEXT NOT NULL,
  "audit_id"           TEXT,
  "ledger_seq"         BIGINT,
  "created_at"         TIMESTAMPTZ(3) NOT NULL,
  "response_type"      TEXT NOT NULL,
  "error_code"         TEXT,
  "subject_node_ids"   TEXT[] NOT NULL DEFAULT '{}',
  "answer_node_ids"    TEXT[] NOT NULL DEFAULT '{}',
  "cited_node_ids"     TEXT[] NOT NULL DEFAULT '{}',
  "cited_evidence_ids" TEXT[] NOT NULL DEFAULT '{}',
  "cited_edge_ids"     TEXT[] NOT NULL DEFAULT '{}',
  "references"         JSONB NOT NULL DEFAULT '[]'::jsonb,
  "answer"             JSONB,
  PRIMARY KEY ("thread_id", "turn")
);
CREATE INDEX "thread_turn_request_idx" ON "thread_turn" ("request_id");

-- The audit explorer shows a thread's turns together: answer entries carry thread_id and thread_turn in the payload.
CREATE INDEX "ledger_tenant_thread_seq_idx" ON "ledger" ("tenant_id", ("payload" ->> 'thread_id'), "seq")
  WHERE "payload" ? 'thread_id';
