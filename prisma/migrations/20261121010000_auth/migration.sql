-- Authentication and administration (issue 3).

-- Sign-in attempts, for the per-account lockout (the 6th failure within a minute is refused without checking the
-- password). Kept in the database so every process sees the same count. outcome: pending | failure | success | locked;
-- a pending attempt counts as a failure until its password check finishes, so concurrent guesses cannot slip past.
CREATE TABLE "login_attempt" (
  "id" BIGSERIAL PRIMARY KEY,
  "email" TEXT NOT NULL,
  "ip_address" TEXT,
  "outcome" TEXT NOT NULL CHECK ("outcome" IN ('pending', 'failure', 'success', 'locked')),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "login_attempt_email_created_at_idx" ON "login_attempt"("email", "created_at");

-- Licenses: NULL tenant = a shared license (from bundles, managed by operators through import); otherwise owned by one
-- tenant, whose admins may edit it. A tenant admin never edits a license another tenant's evidence depends on.
ALTER TABLE "license" ADD COLUMN "tenant_id" TEXT REFERENCES "tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE INDEX "license_tenant_id_idx" ON "license"("tenant_id");
