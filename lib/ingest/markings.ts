// The markings a batch (or one file) of ingested documents carries (issue 17). The uploader sets them; unset, the
// classification is the case's, need-to-know is none, and no license is assumed: evidence under UNLICENSED allows no
// use, so it stays invisible to analysis until licensed. Every evidence item, node and edge made from the document
// carries the same markings. Pure: the caller passes the licenses the tenant may use.
import { CasegraphError, type FailureIssue } from "../domain/failure-codes";
import { normaliseTag, parseClassification, type Classification, type StoredClassification } from "../domain/markings";

export const NO_LICENSE = "UNLICENSED";
const MAX_TEXT = 200;
const ISO = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export interface MarkingInput {
  classification?: string | null;
  /** Tags, or one comma-separated string. */
  needToKnow?: readonly string[] | string | null;
  license?: string | null;
  sourceSystem?: string | null;
  collectedAt?: string | null;
  type?: string | null;
}

export interface DocumentMarkings {
  classification: Classification;
  needToKnow: string[];
  license: string;
  sourceSystem: string;
  /** ISO-8601. */
  collectedAt: string;
  /** The uploader's evidence type; null: the format's default (kinds.ts DEFAULT_EVIDENCE_TYPE). */
  type: string | null;
}

export interface MarkingContext {
  caseClassification: StoredClassification;
  /** License ids the tenant may use (shared ones and its own). */
  licenses: ReadonlySet<string>;
  defaultSourceSystem: string;
  now: Date;
}

const blank = (v: string | null | undefined) => v === undefined || v === null || v.trim() === "";
const printable = (v: string) => !/[\u0000-\u001f\u007f]/.test(v) && v.trim().length <= MAX_TEXT;

export function resolveMarkings(input: MarkingInput, ctx: MarkingContext): DocumentMarkings {
  const issues: FailureIssue[] = [];
  let classification: Classification | null;
  if (blank(input.classification)) {
    classification = parseClassification(ctx.caseClassification);
    if (!classification) issues.push({ path: "classification", message: "the case's classification cannot be read: give one" });
  } else {
    classification = parseClassification(input.classification);
    if (!classification) issues.push({ path: "classification", message: `unknown classification "${input.classification}"` });
  }
  const raw = input.needToKnow;
  const tags = (typeof raw === "string" ? (raw.trim() ? raw.split(",") : []) : (raw ?? [])).map((t) => t.trim());
  if (tags.some((t) => t === "" || !printable(t)))
    issues.push({ path: "needToKnow", message: "need-to-know tags must be printable and not blank" });
  const license = blank(input.license) ? NO_LICENSE : input.license!.trim();
  if (license !== NO_LICENSE && !ctx.licenses.has(license)) issues.push({ path: "license", message: `unknown license "${license}"` });
  const sourceSystem = blank(input.sourceSystem) ? ctx.defaultSourceSystem : input.sourceSystem!.trim();
  if (!printable(sourceSystem)) issues.push({ path: "sourceSystem", message: "must be printable, at most 200 characters" });
  let collectedAt = ctx.now.toISOString();
  if (!blank(input.collectedAt)) {
    const t = input.collectedAt!.trim();
    const d = ISO.test(t) ? new Date(t) : null;
    if (!d || Number.isNaN(d.getTime())) issues.push({ path: "collectedAt", message: "not an ISO-8601 date or timestamp" });
    else collectedAt = d.toISOString();
  }
  const type = blank(input.type) ? null : input.type!.trim();
  if (type !== null && !/^[\p{L}\p{N}_.-]{1,60}$/u.test(type))
    issues.push({ path: "type", message: "letters, digits, _ . - only, at most 60 characters" });
  if (issues.length || !classification)
    throw new CasegraphError("CG-INGEST-008", `The markings are not valid: ${issues[0]?.message}.`, issues);
  return {
    classification,
    needToKnow: [...new Set(tags.map(normaliseTag))].sort(),
    license,
    sourceSystem,
    collectedAt,
    type,
  };
}
