// Stage 1's extractor (seed 001 "Extractor", condensed to the passes a structured-output model needs): regularise the
// document into sections → pass 1 classifies each section (policy or not) → pass 2 extracts Policy objects from the
// policy sections (structured output, temperature 0, the vocabulary in the prompt) → pass 3 validates each against
// the schema and the variables Casegraph binds, and asks once more with the problems listed. The result is a proposal
// an admin reviews before compiling. Needs a generative model: the offline model answers CG-POLICY-087.
import { z } from "zod";
import { CasegraphError } from "../domain/failure-codes";
import type { AnswerModel } from "../ports";
import { buildVariables } from "./compile";
import { cmp, policySchema, PRIORITY_LATTICE, type Policy } from "./schema";
import { ANSWER_FACTS, REQUEST_FACTS } from "./vocabulary";

export interface Section {
  heading: string;
  text: string;
}

/** Markdown, plain text or HTML → sections (a heading and its paragraphs). */
export function regularise(text: string, kind: "md" | "txt" | "html"): Section[] {
  let body = text.replace(/\r\n?/g, "\n");
  if (kind === "html") {
    body = body
      .replace(/<(script|style)[\s\S]*?<\/\1>/gi, "")
      .replace(/<h[1-6][^>]*>/gi, "\n# ")
      .replace(/<\/(p|div|li|h[1-6]|tr|br)>|<br\s*\/?>/gi, "\n")
      .replace(/<[^>]+>/g, "")
      .replace(/&nbsp;/g, " ")
      .replace(/&amp;/g, "&")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'");
  }
  const sections: Section[] = [];
  let current: Section = { heading: "", text: "" };
  for (const line of body.split("\n")) {
    const h = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line);
    if (h) {
      if (current.text.trim() || current.heading) sections.push(current);
      current = { heading: h[1]!.trim(), text: "" };
    } else current.text += line + "\n";
  }
  if (current.text.trim() || current.heading) sections.push(current);
  return sections.map((s) => ({ heading: s.heading, text: s.text.trim() })).filter((s) => s.text);
}

const classification = z.object({
  sections: z.array(z.object({ index: z.number().int(), isPolicy: z.boolean(), confidence: z.number().min(0).max(1) })),
});
const extraction = z.object({ policies: z.array(policySchema) });

const VOCABULARY = `Variables you may use in conditions (parameter) — request facts: ${REQUEST_FACTS.join(", ")} (asker_role in admin|investigator|supervisor; asker_clearance and case_classification in PUBLIC|CUI|CONFIDENTIAL|SECRET|TOP_SECRET|TS_SCI; evidence_age_days an integer). Answer facts (booleans unless noted) usable in conditions and as actions: ${Object.keys(ANSWER_FACTS).join(", ")}, names_protected_<category> (e.g. names_protected_informant, names_protected_juvenile); answer_max_amount is a number. Priorities, highest first: ${Object.keys(PRIORITY_LATTICE).join(", ")}. A policy may declare "extractors": {"name": {"pattern": "<regex>", "flags": "i"}} for an answer fact not listed.`;

async function ask<T>(model: AnswerModel, schema: z.ZodType<T>, system: string, prompt: string): Promise<T | null> {
  const { text } = await model.generate({
    promptVersion: "policy_extract_v1",
    system,
    prompt,
    context: null,
    question: prompt.slice(0, 200),
    attempt: 1,
    schema,
  });
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface ExtractResult {
  policies: Policy[];
  sections: number;
  policySections: number;
  rejected: Array<{ section: number; problem: string }>;
}

export async function extractPolicies(model: AnswerModel, source: string, sections: readonly Section[]): Promise<ExtractResult> {
  if (model.provider === "offline") throw new CasegraphError("CG-POLICY-087");
  if (sections.length === 0) throw new CasegraphError("CG-POLICY-088", "The document has no text.");
  const listing = sections.map((s, i) => `[${i}] ${s.heading}\n${s.text.slice(0, 1500)}`).join("\n\n");
  const classified = await ask(
    model,
    classification,
    "You classify sections of an agency policy document. A policy section states what must or must not be done (an obligation, prohibition or restriction). Output JSON only.",
    listing,
  );
  if (!classified) throw new CasegraphError("CG-POLICY-090");
  const chosen = classified.sections.filter((s) => s.isPolicy && s.confidence >= 0.5 && sections[s.index]).map((s) => s.index);
  const policies = new Map<string, Policy>();
  const rejected: ExtractResult["rejected"] = [];
  for (const index of [...new Set(chosen)].sort((a, b) => a - b)) {
    const s = sections[index]!;
    const system = `You turn one section of an agency policy document into answer policies for an evidence-first investigation assistant: what an ANSWER may or must not say, and to whom. ${VOCABULARY} metadata.source is "${source}". Output JSON only: {"policies": [...]}.`;
    let prompt = `Section "${s.heading}":\n${s.text}`;
    for (let attempt = 1; attempt <= 2; attempt++) {
      const out = await ask(model, extraction, system, prompt);
      const problem = out ? checkVocabulary(out.policies) : "output did not match the Policy schema";
      if (out && !problem) {
        for (const p of out.policies) policies.set(p.policy_id, { ...p, metadata: { ...p.metadata, source } });
        break;
      }
      if (attempt === 2) rejected.push({ section: index, problem: problem! });
      prompt += `\n\nYour previous output was refused: ${problem}. Use only the listed variables.`;
    }
  }
  return {
    policies: [...policies.values()].sort((a, b) => cmp(a.policy_id, b.policy_id)),
    sections: sections.length,
    policySections: chosen.length,
    rejected,
  };
}

function checkVocabulary(policies: Policy[]): string | null {
  try {
    buildVariables(policies.map((policy, i) => ({ policy, line: i + 1 })));
    return null;
  } catch (err) {
    return err instanceof CasegraphError ? err.message : "invalid";
  }
}
