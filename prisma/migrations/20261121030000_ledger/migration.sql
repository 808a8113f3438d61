-- Tamper-evident ledger (issue 7): exact hashed bytes, database-enforced chaining, Merkle subtree hashes,
-- append-only triggers, signed checkpoints, a redactable side table for question text, explorer indexes.
--
-- Who can bypass what: the triggers below reject UPDATE, DELETE and TRUNCATE for every role. Only the table's owner
-- can `ALTER TABLE … DISABLE TRIGGER` or drop a trigger, and only a superuser can `SET session_replication_role =
-- replica`. Run the application as a role that neither owns these tables nor is a superuser (`casegraph audit app-role
-- <name>` prints the grants) and it cannot switch the protection off. The embedded database (PGlite) runs everything
-- as its superuser inside the application process: there the triggers stop mistakes and bugs, and the signed
-- checkpoints (whose key an attacker editing the data folder does not hold) are what make tampering evident.

-- 1. The exact bytes that were hashed. entry_hash = sha256_hex(prev_hash || body), body = canonical JSON of
--    {seq, kind, createdAt, payload}. `payload` becomes a column the database derives from `body`, so the JSON the
--    explorer reads is by construction the JSON that was hashed, and a full verify hashes `body` without re-serialising.

-- Canonical JSON in SQL, only to backfill rows written before this migration (keys sorted, no whitespace).
CREATE FUNCTION "casegraph_canonical_json"(j jsonb) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  out text;
BEGIN
  CASE jsonb_typeof(j)
    WHEN 'object' THEN
      SELECT '{' || coalesce(string_agg(to_json(k)::text || ':' || "casegraph_canonical_json"(v), ',' ORDER BY k COLLATE "C"), '') || '}'
        INTO out FROM jsonb_each(j) AS e(k, v);
    WHEN 'array' THEN
      SELECT '[' || coalesce(string_agg("casegraph_canonical_json"(v), ',' ORDER BY o), '') || ']'
        INTO out FROM jsonb_array_elements(j) WITH ORDINALITY AS a(v, o);
    ELSE
      out := j::text;
  END CASE;
  RETURN out;
END $$;

CREATE FUNCTION "casegraph_iso_ms"(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

ALTER TABLE "ledger" ADD COLUMN "body" TEXT;
UPDATE "ledger" SET "body" = '{"createdAt":' || to_json("casegraph_iso_ms"("created_at"))::text || ',"kind":' || to_json("kind")::text
  || ',"payload":' || "casegraph_canonical_json"("payload") || ',"seq":' || "seq" || '}';
ALTER TABLE "ledger" ALTER COLUMN "body" SET NOT NULL;
ALTER TABLE "ledger" DROP COLUMN "payload";
ALTER TABLE "ledger" ADD COLUMN "payload" JSONB GENERATED ALWAYS AS (("body"::jsonb) -> 'payload') STORED;

-- 2. Merkle tree (RFC 6962): leaf = sha256(0x00 || entry_hash bytes), node = sha256(0x01 || left || right). The row
--    with sequence number s stores the hashes of the complete subtrees it completes: levels 1..(trailing zero bits of
--    s), so element L of subtree_hashes is the subtree of 2^L leaves ending at s. Any proof is O(log n) row lookups.
ALTER TABLE "ledger" ADD COLUMN "subtree_hashes" TEXT[] NOT NULL DEFAULT '{}';

CREATE FUNCTION "ledger_leaf_hash"(entry_hash text) RETURNS bytea LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT sha256('\x00'::bytea || decode(entry_hash, 'hex'))
$$;

-- Subtree hashes completed by the entry at `s` with hash `entry_hash`, from the rows before it.
CREATE FUNCTION "ledger_subtree_hashes"(s bigint, entry_hash text) RETURNS text[] LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  cur bytea := "ledger_leaf_hash"(entry_hash);
  lft bytea;
  lvl int := 0;
  i bigint := s - 1;  -- 0-based leaf index
  out text[] := '{}';
BEGIN
  WHILE i % 2 = 1 LOOP
    IF lvl = 0 THEN
      SELECT "ledger_leaf_hash"(l."entry_hash") INTO lft FROM "ledger" l WHERE l."seq" = s - 1;
    ELSE
      SELECT decode(l."subtree_hashes"[lvl], 'hex') INTO lft FROM "ledger" l WHERE l."seq" = s - (1::bigint << lvl);
    END IF;
    IF lft IS NULL THEN
      RAISE EXCEPTION 'casegraph ledger: subtree of level % before seq % is missing', lvl, s USING ERRCODE = 'CGL02';
    END IF;
    cur := sha256('\x01'::bytea || lft || cur);
    out := out || encode(cur, 'hex');
    lvl := lvl + 1;
    i := i / 2;
  END LOOP;
  RETURN out;
END $$;

-- Backfill rows written before this migration, in order.
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT "seq", "entry_hash" FROM "ledger" ORDER BY "seq" LOOP
    UPDATE "ledger" SET "subtree_hashes" = "ledger_subtree_hashes"(r."seq", r."entry_hash") WHERE "seq" = r."seq";
  END LOOP;
END $$;

-- 3. Every insert, from any writer, must continue the chain: next sequence number, linked to its predecessor, hash
--    over the body, body envelope matching the columns, time not going backwards. The database also fills in the
--    Merkle subtree hashes, so no writer can get them wrong.
CREATE FUNCTION "ledger_before_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  prev record;
  prefix text;
  suffix text;
BEGIN
  IF NEW."entry_hash" !~ '^[0-9a-f]{64}$' OR NEW."prev_hash" !~ '^[0-9a-f]{64}$' THEN
    RAISE EXCEPTION 'casegraph ledger: hashes must be 64 lowercase hex characters' USING ERRCODE = 'CGL02';
  END IF;
  IF NEW."seq" = 1 THEN
    IF NEW."prev_hash" <> repeat('0', 64) THEN
      RAISE EXCEPTION 'casegraph ledger: the first entry must link to the genesis hash' USING ERRCODE = 'CGL02';
    END IF;
  ELSE
    SELECT l."entry_hash", l."created_at" INTO prev FROM "ledger" l WHERE l."seq" = NEW."seq" - 1;
    IF NOT FOUND OR prev."entry_hash" <> NEW."prev_hash" THEN
      RAISE EXCEPTION 'casegraph ledger: entry % does not continue the chain', NEW."seq" USING ERRCODE = 'CGL02';
    END IF;
    IF NEW."created_at" < prev."created_at" THEN
      RAISE EXCEPTION 'casegraph ledger: entry % is dated before its predecessor', NEW."seq" USING ERRCODE = 'CGL02';
    END IF;
  END IF;
  IF encode(sha256(convert_to(NEW."prev_hash" || NEW."body", 'UTF8')), 'hex') <> NEW."entry_hash" THEN
    RAISE EXCEPTION 'casegraph ledger: entry_hash of entry % is not sha256(prev_hash || body)', NEW."seq" USING ERRCODE = 'CGL02';
  END IF;
  prefix := '{"createdAt":' || to_json("casegraph_iso_ms"(NEW."created_at"))::text || ',"kind":' || to_json(NEW."kind")::text || ',"payload":';
  suffix := ',"seq":' || NEW."seq" || '}';
  IF left(NEW."body", length(prefix)) <> prefix OR right(NEW."body", length(suffix)) <> suffix THEN
    RAISE EXCEPTION 'casegraph ledger: body of entry % does not match its seq, kind and time', NEW."seq" USING ERRCODE = 'CGL02';
  END IF;
  NEW."subtree_hashes" := "ledger_subtree_hashes"(NEW."seq", NEW."entry_hash");
  RETURN NEW;
END $$;

CREATE TRIGGER "ledger_chain" BEFORE INSERT ON "ledger" FOR EACH ROW EXECUTE FUNCTION "ledger_before_insert"();

-- 4. Append-only: UPDATE, DELETE and TRUNCATE are rejected for every statement (even one that matches no row).
CREATE FUNCTION "casegraph_reject_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'casegraph: % on "%" is not allowed: the table is append-only', TG_OP, TG_TABLE_NAME USING ERRCODE = 'CGL01';
END $$;

CREATE TRIGGER "ledger_append_only" BEFORE UPDATE OR DELETE OR TRUNCATE ON "ledger"
  FOR EACH STATEMENT EXECUTE FUNCTION "casegraph_reject_change"();

-- 5. Signed checkpoints: (tree size, root hash, time, key id) signed with Ed25519. One per tree size, append-only.
--    The signer's public key is kept with each checkpoint so old ones stay checkable after a key rotation (a verifier
--    still decides which keys it trusts).
CREATE TABLE "ledger_checkpoint" (
  "tree_size" BIGINT PRIMARY KEY CHECK ("tree_size" >= 0),
  "root_hash" TEXT NOT NULL CHECK ("root_hash" ~ '^[0-9a-f]{64}$'),
  "signed_time" TEXT NOT NULL,
  "key_id" TEXT NOT NULL,
  "signature" TEXT NOT NULL,
  "public_key" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TRIGGER "ledger_checkpoint_append_only" BEFORE UPDATE OR DELETE OR TRUNCATE ON "ledger_checkpoint"
  FOR EACH STATEMENT EXECUTE FUNCTION "casegraph_reject_change"();

-- 6. The redactable part of an entry, outside the hash: the question text (AUDIT_QUERY_MODE=text). The hashed
--    payload keeps the question's SHA-256 (query_sha256), which binds this text to the entry; retention erases the
--    text after AUDIT_RETENTION_DAYS by setting it to NULL. Nothing else may change, and rows are never deleted.
CREATE TABLE "ledger_redactable" (
  "seq" BIGINT PRIMARY KEY REFERENCES "ledger"("seq"),
  "question_text" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "erased_at" TIMESTAMPTZ(3),
  "search" tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce("question_text", ''))) STORED
);
CREATE INDEX "ledger_redactable_search_idx" ON "ledger_redactable" USING GIN ("search");
CREATE INDEX "ledger_redactable_retention_idx" ON "ledger_redactable" ("created_at") WHERE "question_text" IS NOT NULL;

CREATE FUNCTION "ledger_redactable_erase_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."seq" IS DISTINCT FROM OLD."seq" OR NEW."created_at" IS DISTINCT FROM OLD."created_at"
     OR OLD."question_text" IS NULL OR NEW."question_text" IS NOT NULL OR NEW."erased_at" IS NULL THEN
    RAISE EXCEPTION 'casegraph: ledger_redactable only allows erasing stored text' USING ERRCODE = 'CGL01';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "ledger_redactable_erase" BEFORE UPDATE ON "ledger_redactable"
  FOR EACH ROW EXECUTE FUNCTION "ledger_redactable_erase_only"();
CREATE TRIGGER "ledger_redactable_append_only" BEFORE DELETE OR TRUNCATE ON "ledger_redactable"
  FOR EACH STATEMENT EXECUTE FUNCTION "casegraph_reject_change"();

-- 7. Explorer indexes (keyset pagination on seq within a tenant stays an index scan at 1M entries). Filters on the
--    answer payload (lib/graphrag/audit.ts field names) use expression or partial indexes written exactly as the
--    explorer's predicates (lib/server/audit-explorer.ts).
CREATE INDEX "ledger_created_at_idx" ON "ledger" ("created_at");
CREATE INDEX "ledger_tenant_kind_seq_idx" ON "ledger" ("tenant_id", "kind", "seq");
CREATE INDEX "ledger_tenant_response_type_seq_idx" ON "ledger" ("tenant_id", ("payload" ->> 'response_type'), "seq");
CREATE INDEX "ledger_tenant_model_seq_idx" ON "ledger" ("tenant_id", ("payload" ->> 'model'), "seq");
CREATE INDEX "ledger_tenant_prompt_version_seq_idx" ON "ledger" ("tenant_id", ("payload" ->> 'prompt_version'), "seq");
CREATE INDEX "ledger_tenant_needs_review_seq_idx" ON "ledger" ("tenant_id", "seq")
  WHERE ("payload" -> 'needs_review') = 'true'::jsonb;
CREATE INDEX "ledger_tenant_citations_outside_seq_idx" ON "ledger" ("tenant_id", "seq")
  WHERE ("payload" -> 'all_citations_in_context') = 'false'::jsonb;
CREATE INDEX "ledger_tenant_policy_filtered_seq_idx" ON "ledger" ("tenant_id", "seq")
  WHERE ("payload" -> 'policy_filtered_count') > '0'::jsonb;
