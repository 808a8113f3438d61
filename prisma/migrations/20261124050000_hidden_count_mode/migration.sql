-- How answers report what the policy hid (issue 11 §4): 'case' (default) gives the case-level totals of what the asker
-- cannot see, the same for every question; 'exact' gives this question's counts, which let a user test whether a word
-- appears in hidden evidence — a tenant admin's decision, recorded in the ledger.
ALTER TABLE "tenant" ADD COLUMN "hidden_count_mode" TEXT NOT NULL DEFAULT 'case'
  CHECK ("hidden_count_mode" IN ('case', 'exact'));
