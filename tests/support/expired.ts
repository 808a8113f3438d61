// A metro-pd case whose answers rest on evidence at different points of its lifecycle (issue 15): each question below
// is answered by exactly one item, and no active item answers any of them. Imported after the demo (its users).
import type { Database } from "@/lib/adapters/prisma/db";
import { importBundle } from "@/lib/adapters/prisma/workspace";
import { demoBundle } from "./demo";

export const EXPIRY_CASE = "case-expiry";

/** Each question, the one item that answers it, and a phrase of that item's text the asker must never see held. */
export const EXPIRED_BY_DATE = {
  question: "What happened at the Northgate depot?",
  id: "EV-X1",
  secret: "Helena Strand",
  expiredAt: "2025-06-30T00:00:00.000Z",
};
/** Expired by the tenant's maximum age for its type (swab_result: 30 days from 2025-05-01). */
export const EXPIRED_BY_AGE = {
  question: "What happened at the Kestrel marina boathouse?",
  id: "EV-X2",
  secret: "fentanyl residue",
  expiredAt: "2025-05-31T00:00:00.000Z",
};
/** Past its validUntil and revoked by an admin in the tests: never a hold. */
export const REVOKED = { question: "What happened at the Quayside auction?", id: "EV-X3", secret: "trawler Marisol" };
/** Expired, TOP_SECRET: above the investigators' clearance (Reyes SECRET, Kim CUI); Park and Okafor may see it. */
export const ABOVE_CLEARANCE = { question: "What happened under the Ashford viaduct?", id: "EV-X4", secret: "Larkspur" };
/** Active until far in the future, then expired by the tests (answer reuse). */
export const EXPIRES_LATER = { question: "What happened at the Pelham ferry terminal?", id: "EV-X5", secret: "Oskar Lind" };
/** A question nothing in the case answers. */
export const NOTHING_ANSWERS = "What happened at the Brimley lighthouse?";

export function expiryBundle() {
  const demo = demoBundle();
  const tenant = { ...demo.tenants.find((t: { id: string }) => t.id === "metro-pd"), evidenceMaxAgeDays: { swab_result: 30 } };
  const item = (id: string, content: string, extra: Record<string, unknown> = {}) => ({
    id,
    type: "surveillance_note",
    sourceSystem: "RMS",
    classification: "CUI",
    license: "LIC-INTERNAL",
    collectedAt: "2025-05-01T00:00:00Z",
    nodes: [],
    content,
    ...extra,
  });
  return {
    format: "casegraph.workspace/v1",
    tenants: [tenant],
    licenses: demo.licenses,
    users: demo.users.filter((u: { tenant: string }) => u.tenant === "metro-pd"),
    cases: [
      {
        id: EXPIRY_CASE,
        tenant: "metro-pd",
        title: "Expired evidence",
        classification: "CUI",
        members: ["det.reyes@metro.example", "analyst.kim@metro.example", "lead.park@metro.example"],
        nodes: [{ id: "n-mill", label: "Location", properties: { name: "Mill Road" } }],
        edges: [],
        evidence: [
          item("EV-A1", "Patrol logged a broken street lamp on Mill Road on 2 May 2025.", { nodes: ["n-mill"] }),
          item(EXPIRED_BY_DATE.id, "Helena Strand rented storage unit 14 at the Northgate depot on 9 March 2025.", {
            validUntil: EXPIRED_BY_DATE.expiredAt,
          }),
          item(EXPIRED_BY_AGE.id, "A swab from the Kestrel marina boathouse tested positive for fentanyl residue on 30 April 2025.", {
            type: "swab_result",
          }),
          item(REVOKED.id, "Ivo Brandt sold the green trawler Marisol at the Quayside auction on 2 March 2025.", {
            validUntil: "2025-06-30T00:00:00Z",
          }),
          item(ABOVE_CLEARANCE.id, "Operative Larkspur met a courier under the Ashford viaduct on 5 March 2025.", {
            classification: "TOP_SECRET",
            validUntil: "2025-06-30T00:00:00Z",
          }),
          item(EXPIRES_LATER.id, "Oskar Lind boarded the night boat at the Pelham ferry terminal on 7 March 2025.", {
            validUntil: "2999-01-01T00:00:00Z",
          }),
        ],
      },
    ],
  };
}

export async function importExpiryCase(db: Database) {
  return importBundle(db, expiryBundle());
}
