// POST /api/reviews/{id}/approve|reject share this: parse the note, decide, answer the new status.
import "server-only";
import { z } from "zod";
import type { Actor } from "../auth/actor";
import { inputError } from "../auth/guard";
import { CasegraphError } from "../domain/failure-codes";
import { decideReview } from "./reviews";
import { runtime } from "./runtime";

const body = z.object({ note: z.string().max(2000).optional() });
const id = z.string().min(1).max(100);

export async function decideFromRequest(req: Request, actor: Actor, reviewId: string, decision: "approve" | "reject"): Promise<Response> {
  if (!id.safeParse(reviewId).success) throw new CasegraphError("CG-REVIEW-001");
  let json: unknown = {};
  try {
    const text = await req.text();
    json = text ? JSON.parse(text) : {};
  } catch {
    throw new CasegraphError("CG-INPUT-001", "The body is not JSON.");
  }
  const parsed = body.safeParse(json);
  if (!parsed.success) throw inputError(parsed.error);
  const { db } = await runtime();
  const r = await decideReview(db.prisma, actor, reviewId, decision, parsed.data.note ?? null);
  return Response.json({ ok: true, ...r }, { headers: { "Cache-Control": "no-store" } });
}
