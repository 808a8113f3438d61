// PostgreSQL/PGlite adapters of the grounding ports (lib/grounding/ports.ts): kill switches and the answer cache.
import type { PrismaClient } from "../../generated/prisma/client";
import type { AnswerCache, CitedEvidence, KillSwitchReader, StoredAnswer } from "../../grounding/ports";
import { effectiveSwitches, ALL_TENANTS, type KillSwitchState } from "../../grounding/switches";

export class PrismaKillSwitches implements KillSwitchReader {
  constructor(private readonly prisma: PrismaClient) {}

  async read(tenantId: string): Promise<KillSwitchState> {
    const rows = await this.prisma.killSwitch.findMany({
      where: { tenantId: { in: [tenantId, ALL_TENANTS] } },
      select: { tenantId: true, name: true, enabled: true },
    });
    return effectiveSwitches(rows, tenantId);
  }
}

export class PrismaAnswerCache implements AnswerCache {
  constructor(private readonly prisma: PrismaClient) {}

  async latest(reuseKey: string): Promise<StoredAnswer | null> {
    const row = await this.prisma.answerCache.findFirst({ where: { reuseKey }, orderBy: [{ createdAt: "desc" }, { requestId: "asc" }] });
    if (!row) return null;
    return {
      reuseKey: row.reuseKey,
      requestId: row.requestId,
      tenantId: row.tenantId,
      caseId: row.caseId,
      createdAt: row.createdAt.toISOString(),
      body: JSON.parse(row.body),
      cited: row.cited as unknown as CitedEvidence[],
    };
  }

  async put(a: StoredAnswer): Promise<void> {
    await this.prisma.answerCache.create({
      data: {
        requestId: a.requestId,
        reuseKey: a.reuseKey,
        tenantId: a.tenantId,
        caseId: a.caseId,
        createdAt: new Date(a.createdAt),
        body: JSON.stringify(a.body),
        cited: a.cited as unknown as object[],
      },
    });
  }
}
