-- Grounding controls (issue 15, seed 004): the evidence lifecycle, tenant evidence rules and kill switches.

-- The digest duplicate detection and answer reuse compare: SHA-256 of the content, Unicode NFC, runs of ASCII
-- whitespace collapsed to one space, trimmed (lib/grounding/lifecycle.ts contentSha256 computes the same in the process).
-- Marked IMMUTABLE so it can feed a generated column: the normalisation depends only on the text.
CREATE FUNCTION casegraph_content_sha256(content TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT encode(sha256(convert_to(btrim(regexp_replace(normalize(content, NFC), E'[ \t\n\r\f\v]+', ' ', 'g'), ' '), 'UTF8')), 'hex')
$$;

-- Evidence is active, expired (past valid_until, or older than its tenant's maximum age for its type) or revoked (an
-- admin's decision with a reason). Only active evidence is read by the stores (lib/adapters/prisma/evidence-active.ts).
ALTER TABLE "evidence" ADD COLUMN "valid_until" TIMESTAMPTZ(3);
ALTER TABLE "evidence" ADD COLUMN "revoked_at" TIMESTAMPTZ(3);
ALTER TABLE "evidence" ADD COLUMN "revoked_reason" TEXT;
ALTER TABLE "evidence" ADD COLUMN "revoked_by" TEXT;
ALTER TABLE "evidence" ADD COLUMN "content_sha256" TEXT GENERATED ALWAYS AS (casegraph_content_sha256("content")) STORED;
ALTER TABLE "evidence" ADD CONSTRAINT "evidence_revocation_complete"
  CHECK (("revoked_at" IS NULL AND "revoked_reason" IS NULL AND "revoked_by" IS NULL)
      OR ("revoked_at" IS NOT NULL AND length(btrim("revoked_reason")) > 0 AND length(btrim("revoked_by")) > 0));
CREATE INDEX "evidence_case_content_sha256_idx" ON "evidence" ("case_id", "content_sha256");

-- A tenant's evidence rules: the types it accepts (empty: any) and a maximum age in days per type ({}: none).
ALTER TABLE "tenant" ADD COLUMN "evidence_types" TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE "tenant" ADD COLUMN "evidence_max_age_days" JSONB NOT NULL DEFAULT '{}'::jsonb
  CHECK (jsonb_typeof("evidence_max_age_days") = 'object');

-- Kill switches per tenant ('*': the whole deployment, set by operators). A switch is on when its row for the tenant
-- or for '*' says so. Every flip is a ledger entry (lib/server/kill-switches.ts).
CREATE TABLE "kill_switch" (
  "tenant_id"  TEXT NOT NULL,
  "name"       TEXT NOT NULL CHECK ("name" IN ('DISABLE_ANSWER_REUSE', 'DISABLE_MODEL', 'DISABLE_EXPORTS')),
  "enabled"    BOOLEAN NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_by" TEXT NOT NULL,
  PRIMARY KEY ("tenant_id", "name")
);

-- Nonces of operator override tokens already applied: a token is used once (seed 004 §8). Only the nonce and the
-- token's digest are kept, never the token.
CREATE TABLE "override_use" (
  "nonce"        TEXT PRIMARY KEY,
  "token_sha256" TEXT NOT NULL,
  "request_id"   TEXT NOT NULL,
  "applied_at"   TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

-- Validated answers kept for reuse (seed 004 §6 "true reuse"), keyed by the reuse key (case, normalised question, the
-- asker's policy fingerprint, model, prompt and contract versions, policy bundle). `body` is the JSON text as
-- delivered (text, not jsonb, so a reused answer is byte-identical); `cited` the cited ids with their content digests.
CREATE TABLE "answer_cache" (
  "request_id" TEXT PRIMARY KEY,
  "reuse_key"  TEXT NOT NULL,
  "tenant_id"  TEXT NOT NULL,
  "case_id"    TEXT NOT NULL REFERENCES "case"("id") ON DELETE CASCADE,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "body"       TEXT NOT NULL,
  "cited"      JSONB NOT NULL
);
CREATE INDEX "answer_cache_key_idx" ON "answer_cache" ("reuse_key", "created_at" DESC);

-- Requests held back from their askers until a supervisor or a signed operator override releases them: an
-- expired-evidence refusal, or an escalated or withheld answer (the answer policies, issue 14). Releasing only lets the
-- held result out; it never changes identities, clearances or policies.
CREATE TABLE "held_request" (
  "id"          TEXT PRIMARY KEY,
  "kind"        TEXT NOT NULL,
  "tenant_id"   TEXT NOT NULL,
  "case_id"     TEXT,
  "state"       TEXT NOT NULL DEFAULT 'held' CHECK ("state" IN ('held', 'released')),
  "created_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "released_at" TIMESTAMPTZ(3),
  "released_by" TEXT,
  CHECK (("state" = 'held') = ("released_at" IS NULL))
);
