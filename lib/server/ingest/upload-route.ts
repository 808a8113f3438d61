// POST /api/cases/{caseId}/documents (issue 17): multipart/form-data with one or more `file` parts and optional
// marking fields (classification, needToKnow, license, sourceSystem, collectedAt, type) for the batch, and optionally
// `fileMarkings`, JSON of per-file markings by file name ({"a.pdf": {"classification": "SECRET"}}), from a Bearer token or a
// session (the case page's "Add evidence" panel sends one file per request to show its progress). A body may be at
// most four times the per-file limit: refused from its Content-Length before it is read, and counted as it is read
// (a chunked body without a length is cut off at the limit, never held whole).
import "server-only";
import { z } from "zod";
import type { Actor } from "../../auth/actor";
import { CasegraphError, FAILURES, type FailureCode } from "../../domain/failure-codes";
import { ingestDeps } from ".";
import { ingestDocuments, type IngestSource } from "./ingest";
import { assertMayIngest } from "./authorize";

export const MAX_FILES_PER_REQUEST = 20;
/** A request's body may hold this many files of the largest size allowed. */
const BODY_FILES = 4;
/** Room for the multipart framing and the marking fields around the files. */
const FRAMING_BYTES = 1024 * 1024;
const MARKING_FIELDS = ["classification", "needToKnow", "license", "sourceSystem", "collectedAt", "type"] as const;
const text = z.string().max(500).optional();
const fileMarkingsSchema = z.record(
  z.string().max(255),
  z
    .object({
      classification: text,
      needToKnow: z.union([text, z.array(z.string().max(200)).max(50)]),
      license: text,
      sourceSystem: text,
      collectedAt: text,
      type: text,
    })
    .strict(),
);

function fileMarkingsOf(form: FormData) {
  const raw = form.get("fileMarkings");
  if (raw === null) return {};
  try {
    const parsed = fileMarkingsSchema.safeParse(JSON.parse(String(raw)));
    if (parsed.success) return parsed.data;
  } catch {
    // reported below
  }
  throw new CasegraphError("CG-INGEST-010", "`fileMarkings` must be JSON: an object of file name → markings.");
}

export async function uploadFromRequest(req: Request, actor: Actor, caseId: string): Promise<Response> {
  const deps = await ingestDeps();
  // Authorized before the body is read: a caller who may not add evidence here learns nothing from a bad body.
  await assertMayIngest(deps.db.prisma, actor, caseId);
  const limit = deps.settings.maxBytes * BODY_FILES + FRAMING_BYTES;
  const tooLarge = () =>
    new CasegraphError("CG-INGEST-002", `The upload is larger than ${limit} bytes; send fewer or smaller files per request.`);
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  const contentType = req.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    throw new CasegraphError("CG-INGEST-010", "Send multipart/form-data with `file` parts.");
  }
  const body = await boundedBody(req, limit, tooLarge);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new CasegraphError("CG-INGEST-010", "The multipart body cannot be read.");
  }
  const files = form.getAll("file").filter((f): f is File => typeof f === "object" && f !== null && "arrayBuffer" in f);
  if (!files.length || files.length > MAX_FILES_PER_REQUEST) {
    throw new CasegraphError("CG-INGEST-010", `Send 1–${MAX_FILES_PER_REQUEST} \`file\` parts.`);
  }
  const markings = Object.fromEntries(
    MARKING_FIELDS.map((k) => [k, typeof form.get(k) === "string" ? (form.get(k) as string) : undefined]),
  ) as Record<(typeof MARKING_FIELDS)[number], string | undefined>;
  const perFile = fileMarkingsOf(form);
  const sources: IngestSource[] = [];
  for (const f of files) {
    const name = f.name || "upload";
    sources.push({ name, bytes: Buffer.from(await f.arrayBuffer()), ...(perFile[name] ? { markings: perFile[name] } : {}) });
  }
  const result = await ingestDocuments(deps, actor, caseId, sources, { markings, channel: actor.via === "token" ? "api" : "upload" });
  // Every file refused: the first refusal's status (415, 422…), the batch still in the body.
  const firstError = result.files.find((f) => !f.ok);
  const status =
    result.refused === result.files.length && firstError && !firstError.ok
      ? (FAILURES[firstError.error.code as FailureCode]?.status ?? 422)
      : 200;
  return Response.json({ ok: result.refused === 0, ...result }, { status, headers: { "Cache-Control": "no-store" } });
}

/** Reads the body, counting bytes as they arrive; past `limit` the stream is cancelled and the upload refused. */
async function boundedBody(req: Request, limit: number, tooLarge: () => Error): Promise<Buffer> {
  const reader = req.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    parts.push(value);
  }
  return Buffer.concat(parts);
}
