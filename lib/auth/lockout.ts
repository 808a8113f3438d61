// Per-account sign-in lockout, in the database so it holds across processes and restarts: once an account has
// LOCKOUT_MAX_FAILURES failed (or still running) attempts within LOCKOUT_WINDOW_SECONDS since its last success, the next
// attempt is refused without checking the password (CG-AUTH-004). Reserving the attempt and counting happen under one
// advisory lock per email, so concurrent guesses line up instead of racing past the limit.
import "server-only";
import type { PrismaClient } from "../generated/prisma/client";

export const LOCKOUT_MAX_FAILURES = 5;
export const LOCKOUT_WINDOW_SECONDS = 60;
const LOCK_NAMESPACE = 72_003;

export type Reservation = { locked: true } | { locked: false; attemptId: bigint };

export async function reserveAttempt(prisma: PrismaClient, email: string, ip: string | null): Promise<Reservation> {
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_NAMESPACE}::int, hashtext(${email}))`;
    const [{ n }] = await tx.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM "login_attempt"
      WHERE email = ${email} AND outcome IN ('pending', 'failure')
        AND created_at > now() - make_interval(secs => ${LOCKOUT_WINDOW_SECONDS})
        AND created_at > COALESCE((SELECT max(created_at) FROM "login_attempt" WHERE email = ${email} AND outcome = 'success'),
                                  '-infinity'::timestamptz)`;
    if (n >= LOCKOUT_MAX_FAILURES) {
      await tx.$executeRaw`INSERT INTO "login_attempt" (email, ip_address, outcome) VALUES (${email}, ${ip}, 'locked')`;
      return { locked: true } as const;
    }
    const [row] = await tx.$queryRaw<Array<{ id: bigint }>>`
      INSERT INTO "login_attempt" (email, ip_address, outcome) VALUES (${email}, ${ip}, 'pending') RETURNING id`;
    return { locked: false, attemptId: BigInt(row.id) } as const;
  });
}

export async function settleAttempt(prisma: PrismaClient, attemptId: bigint, outcome: "failure" | "success"): Promise<void> {
  await prisma.loginAttempt.update({ where: { id: attemptId }, data: { outcome } });
}

/** Old rows are only history; keep a day of them. Called opportunistically after sign-ins. */
export async function pruneAttempts(prisma: PrismaClient): Promise<void> {
  await prisma.$executeRaw`DELETE FROM "login_attempt" WHERE created_at < now() - interval '1 day'`;
}
