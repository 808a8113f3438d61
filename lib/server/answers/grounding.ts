// The grounding controls' wiring for this process (issue 15): the kill-switch reader and the answer cache on the
// database, and ANSWER_REUSE_MAX_AGE.
import type { Database } from "../../adapters/prisma/db";
import { PrismaAnswerCache, PrismaKillSwitches } from "../../adapters/prisma/grounding";
import type { GroundingDeps } from "../../grounding/grounded-answer";
import { DEFAULT_REUSE_MAX_AGE_MS } from "../../grounding/reuse";
import { CasegraphError } from "../../domain/failure-codes";

/** ANSWER_REUSE_MAX_AGE: `15m`, `900s`, `1h` or a number of seconds; 0 turns reuse off. Default 15 minutes. */
export function reuseMaxAgeMs(raw = process.env.ANSWER_REUSE_MAX_AGE): number {
  if (raw === undefined || raw.trim() === "") return DEFAULT_REUSE_MAX_AGE_MS;
  const m = /^\s*(\d{1,6})\s*([smh]?)\s*$/i.exec(raw);
  if (!m) throw new CasegraphError("CG-SYS-003", "ANSWER_REUSE_MAX_AGE must be like 15m, 900s or 1h.");
  return Number(m[1]) * { "": 1_000, s: 1_000, m: 60_000, h: 3_600_000 }[m[2].toLowerCase() as "s"];
}

export function groundingDeps(db: Database): GroundingDeps {
  return {
    switches: new PrismaKillSwitches(db.prisma),
    cache: new PrismaAnswerCache(db.prisma),
    reuseMaxAgeMs: reuseMaxAgeMs(),
    // The answer-policy bundle hash arrives with issue 14 (branch h/policy); until then answers name none.
    policyBundle: null,
  };
}
