// Ledger housekeeping: retention (erase stored question text older than AUDIT_RETENTION_DAYS — the chain is not
// touched, the hashed payload keeps the question's SHA-256 — and its copies: thread titles, decided reviews) and a catch-up signed checkpoint (the last multiple of
// CASEGRAPH_CHECKPOINT_EVERY if a crash or an admin-change append skipped it, and the head once per run so a quiet
// ledger still gets a fresh signed checkpoint). Runs from the CLI (`casegraph audit retention`) and on a schedule:
// instrumentation.ts calls startLedgerMaintenance() at server start; it runs then and every
// CASEGRAPH_LEDGER_MAINTENANCE_HOURS (default 24); the catch-up checkpoint alone also every
// CASEGRAPH_CHECKPOINT_MINUTES (default 5).
import "server-only";
import { env } from "../../env";
import { PrismaQuestionCopies } from "../../adapters/prisma/question-copies";
import type { AuditLedger, QuestionCopies } from "../../ports";
import { readLedgerEnv } from "./env";
import { runtime } from "../runtime";

export const RETENTION_KIND = "audit.retention";
const DAY_MS = 86_400_000;

export async function runRetention(
  ledger: AuditLedger,
  days: number,
  now: Date = new Date(),
  copies?: QuestionCopies,
): Promise<{
  cutoff: string;
  erased: number;
  erasedCopies: { threadTitles: number; reviewQuestions: number };
  recordedSeq: number | null;
}> {
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  const erased = await ledger.eraseQuestionTextBefore(cutoff);
  const erasedCopies = copies ? await copies.eraseBefore(cutoff) : { threadTitles: 0, reviewQuestions: 0 };
  let recordedSeq: number | null = null;
  if (erased > 0 || erasedCopies.threadTitles > 0 || erasedCopies.reviewQuestions > 0) {
    const e = await ledger.append({
      kind: RETENTION_KIND,
      payload: {
        retention_days: days,
        cutoff: cutoff.toISOString(),
        erased_question_texts: erased,
        erased_thread_titles: erasedCopies.threadTitles,
        erased_review_questions: erasedCopies.reviewQuestions,
      },
    });
    recordedSeq = e.seq;
  }
  return { cutoff: cutoff.toISOString(), erased, erasedCopies, recordedSeq };
}

/** Retention over the whole deployment: the ledger's question texts and their copies. */
export async function runDeploymentRetention(days: number, now?: Date) {
  const { ledger, db } = await runtime();
  return runRetention(ledger, days, now, new PrismaQuestionCopies(db.prisma));
}

/** Signs what periodic checkpointing may have missed. Returns the sizes signed now. No signer: nothing to do. */
export async function catchUpCheckpoints(ledger: AuditLedger, every: number): Promise<number[]> {
  if (!(await ledger.publicKey())) return [];
  const head = await ledger.head();
  const signed: number[] = [];
  const due = Math.floor(head.size / every) * every;
  if (due > 0 && !(await ledger.checkpointAt(due))) signed.push((await ledger.checkpoint(due)).treeSize);
  const latest = await ledger.latestCheckpoint();
  if (head.size > 0 && (!latest || latest.treeSize < head.size)) signed.push((await ledger.checkpoint(head.size)).treeSize);
  return signed;
}

export async function runLedgerMaintenance(): Promise<{ retention: Awaited<ReturnType<typeof runRetention>>; checkpoints: number[] }> {
  const { ledger } = await runtime();
  const retention = await runDeploymentRetention(env().AUDIT_RETENTION_DAYS);
  const checkpoints = await catchUpCheckpoints(ledger, readLedgerEnv().CASEGRAPH_CHECKPOINT_EVERY);
  return { retention, checkpoints };
}

const timerKey = Symbol.for("casegraph.ledgerMaintenance");
const checkpointTimerKey = Symbol.for("casegraph.ledgerCheckpoints");
type Holder = { [timerKey]?: ReturnType<typeof setInterval>; [checkpointTimerKey]?: ReturnType<typeof setInterval> };

/**
 * For instrumentation.ts (server start): runs maintenance now and then every CASEGRAPH_LEDGER_MAINTENANCE_HOURS.
 * Idempotent per process; failures are logged, never thrown (the server keeps serving; the next run retries).
 */
export function startLedgerMaintenance(): void {
  const holder = globalThis as Holder;
  if (holder[timerKey]) return;
  const le = readLedgerEnv();
  const hours = le.CASEGRAPH_LEDGER_MAINTENANCE_HOURS;
  const run = () =>
    runLedgerMaintenance()
      .then((r) => {
        if (r.retention.erased || r.checkpoints.length) {
          console.log(
            `casegraph: ledger maintenance erased ${r.retention.erased} question text(s); signed checkpoint(s) at ${r.checkpoints.join(", ") || "—"}`,
          );
        }
      })
      .catch((err) => console.error("casegraph: ledger maintenance failed:", (err as Error).message));
  holder[timerKey] = setInterval(run, hours * 3_600_000);
  holder[timerKey].unref?.();
  // The head, signed every few minutes when it moved: the window in which the newest entries could be cut off unseen.
  const sign = () =>
    runtime()
      .then(({ ledger }) => catchUpCheckpoints(ledger, le.CASEGRAPH_CHECKPOINT_EVERY))
      .catch((err) => console.error("casegraph: periodic ledger checkpoint failed:", (err as Error).message));
  holder[checkpointTimerKey] = setInterval(sign, le.CASEGRAPH_CHECKPOINT_MINUTES * 60_000);
  holder[checkpointTimerKey].unref?.();
  void run();
}
