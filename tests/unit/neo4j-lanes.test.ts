import { describe, expect, it } from "vitest";
import { WRITE_LANES, writeInLanes } from "@/lib/adapters/neo4j/sync";
import { CasegraphError } from "@/lib/domain/failure-codes";

const rows = Array.from({ length: 2_000 }, (_, i) => i);
const deadlock = () =>
  new CasegraphError("CG-GRAPH-001", undefined, [], {
    cause: Object.assign(new Error("deadlock"), { code: "Neo.TransientError.Transaction.DeadlockDetected" }),
  });

describe("Neo4j write lanes", () => {
  it("writes every row once, in up to WRITE_LANES concurrent parts", async () => {
    const seen: number[] = [];
    let inFlight = 0,
      most = 0;
    const written = await writeInLanes(rows, async (part) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      seen.push(...part);
      inFlight--;
      return part.length;
    });
    expect(written).toBe(rows.length);
    expect(seen.sort((a, b) => a - b)).toEqual(rows);
    expect(most).toBe(WRITE_LANES);
  });

  it("keeps small batches in one transaction", async () => {
    let calls = 0;
    expect(await writeInLanes(rows.slice(0, 100), async (p) => (calls++, p.length))).toBe(100);
    expect(calls).toBe(1);
    expect(await writeInLanes([], async () => (calls++, 0))).toBe(0);
    expect(calls).toBe(1);
  });

  it("rejects only after every lane has settled, with the failure", async () => {
    const done: number[] = [];
    const failure = new CasegraphError("CG-GRAPH-002");
    await expect(
      writeInLanes(rows, async (part) => {
        if (part[0] === 0) throw failure;
        await new Promise((r) => setTimeout(r, 30));
        done.push(part[0]);
        return part.length;
      }),
    ).rejects.toBe(failure);
    expect(done).toHaveLength(WRITE_LANES - 1); // the slower lanes finished before the rejection came back
  });

  it("writes a deadlock victim again, alone, and gives up on a lasting deadlock", async () => {
    let failedOnce = false;
    const written = await writeInLanes(rows, async (part) => {
      if (part[0] === 0 && !failedOnce) {
        failedOnce = true;
        throw deadlock();
      }
      return part.length;
    });
    expect(written).toBe(rows.length);
    await expect(
      writeInLanes(rows, async (part) => {
        if (part[0] === 0) throw deadlock();
        return part.length;
      }),
    ).rejects.toThrow(CasegraphError);
  });
});
