// Issue 11 §3: every refused question leaves exactly one ledger entry, whatever refused it — the pipeline's input step
// (a NUL in the question or the case id), the guard (no credential, a role that may not ask, a foreign Origin) or the
// server action's input shape — and control characters never reach PostgreSQL.
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { PrismaLedger } from "@/lib/adapters/prisma/ledger";
import { userIdFor } from "@/lib/adapters/prisma/workspace";
import {
  clearTestRuntime,
  cookieHeaderFrom,
  DEMO_PASSWORD,
  importDemo,
  nextHeadersMock,
  setRequest,
  useTestRuntime,
} from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";

vi.mock("next/headers", () => nextHeadersMock);
const { POST } = await import("@/app/api/graphrag/answer/route");
const { ask, askStream } = await import("@/app/(workbench)/cases/[caseId]/actions");
const { issueToken } = await import("@/lib/auth/tokens");
const { signInWithPassword } = await import("@/lib/auth/sign-in");

type Entry = { seq: bigint; payload: Record<string, unknown>; actorId: string | null; caseId: string | null };

describeEachDatabase("refused questions are recorded", (fixture) => {
  let ledger: PrismaLedger;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    const { db } = fixture();
    ledger = useTestRuntime(db);
    await importDemo(db);
    for (const email of ["analyst.ng@cyber.example", "admin@cyber.example"]) {
      tokens[email] = (
        await issueToken(db.prisma, {
          userId: userIdFor(email),
          name: "refusals",
          expiresAt: new Date(Date.now() + 600_000),
          createdBy: null,
        })
      ).token;
    }
  });
  afterAll(() => clearTestRuntime());

  const post = (body: string, headers: Record<string, string>) =>
    POST(
      new Request("http://casegraph.test/api/graphrag/answer", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      }),
      {
        params: Promise.resolve({}),
      },
    );

  /** Runs `act` and returns the ledger entries it added (they must verify as one chain). */
  async function added(act: () => Promise<unknown>): Promise<Entry[]> {
    const before = (await ledger.verify()).size;
    await act();
    await ledger.flush();
    const after = await ledger.verify();
    expect(after.ok).toBe(true);
    const rows = await fixture().db.prisma.ledgerEntry.findMany({ where: { seq: { gt: BigInt(before) } }, orderBy: { seq: "asc" } });
    return rows as unknown as Entry[];
  }

  it("a NUL in the question is CG-INPUT-004 with one entry; the stored text carries U+FFFD, never the NUL", async () => {
    let res!: Response;
    const rows = await added(async () => {
      res = await post(JSON.stringify({ caseId: "case-nightjar", question: "Who owns\u0000 the device?" }), {
        authorization: `Bearer ${tokens["analyst.ng@cyber.example"]}`,
      });
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("CG-INPUT-004");
    expect(rows).toHaveLength(1);
    expect(rows[0].payload).toMatchObject({ response_type: "error", error_code: "CG-INPUT-004", case_id: "case-nightjar" });
    expect(rows[0].actorId).toBe(userIdFor("analyst.ng@cyber.example"));
    const redactable = await fixture().db.prisma.$queryRawUnsafe<Array<{ question_text: string }>>(
      `SELECT question_text FROM "ledger_redactable" WHERE seq = $1`,
      Number(rows[0].seq),
    );
    expect(redactable[0].question_text).toBe("Who owns\uFFFD the device?");
  });

  it("a NUL in the case id is a coded 400 with one entry", async () => {
    let res!: Response;
    const rows = await added(async () => {
      res = await post(JSON.stringify({ caseId: "case-\u0000nightjar", question: "Who?" }), {
        authorization: `Bearer ${tokens["analyst.ng@cyber.example"]}`,
      });
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("CG-INPUT-001");
    expect(rows).toHaveLength(1);
    expect(rows[0].payload).toMatchObject({ error_code: "CG-INPUT-001", case_id: "case-\uFFFDnightjar" });
  });

  it("the guard's refusals are recorded: no credential, a role that may not ask", async () => {
    const body = JSON.stringify({ caseId: "case-nightjar", question: "Who used the device?" });
    let anonymous!: Response;
    const anonRows = await added(async () => {
      anonymous = await post(body, {});
    });
    expect(anonymous.status).toBe(401);
    expect(anonRows).toHaveLength(1);
    expect(anonRows[0].payload).toMatchObject({ error_code: "CG-AUTH-001", actor_id: "", case_id: "case-nightjar", model: null });
    expect(anonRows[0].actorId).toBeNull();

    let admin!: Response;
    const adminRows = await added(async () => {
      admin = await post(body, { authorization: `Bearer ${tokens["admin@cyber.example"]}` });
    });
    expect(admin.status).toBe(403);
    expect(adminRows).toHaveLength(1);
    expect(adminRows[0].payload).toMatchObject({ error_code: "CG-ACCESS-002", actor_via: "token" });
    expect(adminRows[0].actorId).toBe(userIdFor("admin@cyber.example"));

    // A follow-up refused before its thread was opened still names the thread it tried to continue.
    const threadId = "7d1c5c1e-0000-4000-8000-000000000001";
    const followUpRows = await added(async () => {
      await post(JSON.stringify({ caseId: "case-nightjar", question: "And then?", threadId }), {});
    });
    expect(followUpRows[0].payload).toMatchObject({ error_code: "CG-AUTH-001", thread_id_sent: threadId });
    expect(followUpRows[0].payload).not.toHaveProperty("thread_id");
  });

  it("server actions: a foreign Origin and a badly shaped input each leave one entry; askStream too", async () => {
    setRequest({});
    const { setCookies } = await signInWithPassword(
      fixture().db.prisma,
      { email: "analyst.ng@cyber.example", password: DEMO_PASSWORD },
      new Headers(),
    );
    const cookie = cookieHeaderFrom(setCookies);

    setRequest({ cookie, origin: "https://evil.example" });
    let forged: unknown;
    const forgedRows = await added(async () => {
      forged = await ask({ caseId: "case-nightjar", question: "Who used the device?" });
    });
    expect(forged).toMatchObject({ ok: false, error: { code: "CG-AUTH-005" } });
    expect(forgedRows).toHaveLength(1);
    // The forged call named whose session it rode on.
    expect(forgedRows[0].actorId).toBe(userIdFor("analyst.ng@cyber.example"));
    expect(forgedRows[0].payload).toMatchObject({ error_code: "CG-AUTH-005" });

    setRequest({ cookie });
    let shaped: unknown;
    const shapedRows = await added(async () => {
      shaped = await askStream({ caseId: "case-nightjar", question: "x".repeat(100_001) });
    });
    expect(shaped).toMatchObject({ ok: false, error: { code: "CG-INPUT-001" } });
    expect(shapedRows).toHaveLength(1);
    expect(shapedRows[0].payload).toMatchObject({ error_code: "CG-INPUT-001", case_id: "case-nightjar" });
  });
});
