-- Issue 15: an answer drafted from evidence that has expired waits in the same review queue as the answers the answer
-- policies escalated (issue 14), released the same ways (a supervisor's decision, an operator override token).
-- `reason` says which; an expired-evidence hold names the expired items its draft cites and when each expired, and
-- has a policy bundle and findings only when one was active. held_request, a second queue nothing ever filled, is
-- folded into this one.
ALTER TABLE "answer_review"
  ADD COLUMN "reason" TEXT NOT NULL DEFAULT 'policy' CHECK ("reason" IN ('policy', 'expired_evidence')),
  ADD COLUMN "expired_evidence" JSONB,
  ALTER COLUMN "bundle_sha256" DROP NOT NULL,
  ALTER COLUMN "compliance" DROP NOT NULL;
ALTER TABLE "answer_review" ADD CONSTRAINT "answer_review_reason_facts" CHECK (
  CASE "reason"
    WHEN 'policy' THEN "bundle_sha256" IS NOT NULL AND "compliance" IS NOT NULL AND "expired_evidence" IS NULL
    ELSE jsonb_typeof("expired_evidence") = 'array' AND jsonb_array_length("expired_evidence") > 0
  END
);

DROP TABLE "held_request";
