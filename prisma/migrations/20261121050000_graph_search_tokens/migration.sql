-- Seed-node text search by one rule that PostgreSQL and Neo4j both implement exactly (lib/domain/graph-contract.ts):
-- a node's search tokens are the lower-cased pieces of "name id label" between separator characters, at most 100
-- code points each. The stored tsvector now holds exactly those tokens (no parser, no positions), so a seed query is
-- an AND of each term's tokens, OR-ed over terms, answered by the same GIN index as before. The separator class below
-- must stay equal to SEPARATOR_PATTERN in lib/domain/graph-contract.ts (a test compares them).
CREATE FUNCTION cg_search_tokens(t text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $fn$
    SELECT coalesce(array_agg(tok), '{}'::text[])
    FROM regexp_split_to_table(lower(t), '[\u0001-\u002f\u003a-\u0040\u005b-\u0060\u007b-\u00bf\u00d7\u00f7\u1680\u180e\u2000-\u206f\u2e00-\u2e7f\u3000-\u303f\ufeff\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]+') AS tok
    WHERE tok <> '' AND char_length(tok) <= 100
  $fn$;

DROP INDEX "graph_node_search_idx";
ALTER TABLE "graph_node" DROP COLUMN "search";
ALTER TABLE "graph_node" ADD COLUMN "search" tsvector
  GENERATED ALWAYS AS (array_to_tsvector(cg_search_tokens("name" || ' ' || "id" || ' ' || "label"))) STORED;
-- fastupdate off: no pending list, so right after a bulk import the planner prices (and uses) the GIN for what it is,
-- rather than as a long unsorted list to scan until the next VACUUM.
CREATE INDEX "graph_node_search_idx" ON "graph_node" USING GIN ("search") WITH (fastupdate = off);
