// The variables a policy may name: request facts the pipeline knows before generation, and answer facts the
// detectors find in the answer (README "Answer policies"). A policy naming anything else is refused at compile time,
// so every rule of an active bundle can be decided for every answer: nothing is left unbound at enforcement.
import { CLASSIFICATIONS } from "../domain/markings";

export type VarType = "bool" | "int" | "float" | "enum";

export interface VariableDef {
  type: VarType;
  /** Enum values in code-point order; null for other types. */
  values: string[] | null;
  /** Where the enforcement gets its value. */
  binding: Binding;
}

export type Binding =
  { kind: "request"; fact: RequestFact } | { kind: "detector"; detector: string } | { kind: "regex"; pattern: string; flags: string };

export const REQUEST_FACTS = ["asker_role", "asker_clearance", "case_classification", "question_domain", "evidence_age_days"] as const;
export type RequestFact = (typeof REQUEST_FACTS)[number];

/** asker_role: the asker's most senior answering role (supervisor over investigator over admin). */
export const ROLES = ["admin", "investigator", "supervisor"] as const;

const CLASSES = [...CLASSIFICATIONS].sort();

/** Request facts' fixed types; question_domain's values are the bundle's domains (compile.ts adds them). */
export const REQUEST_VARIABLES: Record<RequestFact, Omit<VariableDef, "binding">> = {
  asker_role: { type: "enum", values: [...ROLES] },
  asker_clearance: { type: "enum", values: CLASSES },
  case_classification: { type: "enum", values: CLASSES },
  question_domain: { type: "enum", values: ["general"] },
  evidence_age_days: { type: "int", values: null },
};

/** Built-in answer facts (booleans unless noted) and the detector behind each. */
export const ANSWER_FACTS: Record<string, { type: VarType; detector: string }> = {
  discloses_ssn: { type: "bool", detector: "ssn" },
  discloses_payment_card: { type: "bool", detector: "payment_card" },
  discloses_phone: { type: "bool", detector: "phone" },
  discloses_email: { type: "bool", detector: "email" },
  discloses_credentials: { type: "bool", detector: "credentials" },
  names_protected_entity: { type: "bool", detector: "protected" },
  states_amount: { type: "bool", detector: "amount" },
  /** The largest amount the answer states (0 when none). */
  answer_max_amount: { type: "float", detector: "amount_max" },
  cites_evidence: { type: "bool", detector: "cites_evidence" },
  /** The answer cites an evidence item of type financial_record, bank_record or bank_statement. */
  cites_financial_record: { type: "bool", detector: "cites_financial_record" },
};

/** `names_protected_<category>`: the answer names a protected node of that category (e.g. names_protected_juvenile). */
export const PROTECTED_CATEGORY_FACT = /^names_protected_([a-z][a-z0-9_]*)$/;

/** Detectors whose hits are personal data: a hit of one a rule in force prohibits escalates whatever the score. */
export const PII_KINDS: ReadonlySet<string> = new Set(["ssn", "payment_card", "phone", "email", "credentials", "protected"]);

export const FINANCIAL_EVIDENCE_TYPES: ReadonlySet<string> = new Set(["financial_record", "bank_record", "bank_statement"]);

/** The built-in definition of a name, or null when only a policy's own extractor can bind it. */
export function builtinVariable(name: string): VariableDef | null {
  if ((REQUEST_FACTS as readonly string[]).includes(name)) {
    const def = REQUEST_VARIABLES[name as RequestFact];
    return { ...def, values: def.values ? [...def.values] : null, binding: { kind: "request", fact: name as RequestFact } };
  }
  const fact = ANSWER_FACTS[name];
  if (fact) return { type: fact.type, values: null, binding: { kind: "detector", detector: fact.detector } };
  const category = PROTECTED_CATEGORY_FACT.exec(name);
  if (category && category[1] !== "entity")
    return { type: "bool", values: null, binding: { kind: "detector", detector: `protected:${category[1]}` } };
  return null;
}

/** `evidence_age_days` → "evidence age days" (how the coverage check and the scaffold name a variable). */
export const readable = (name: string) => name.replace(/_/g, " ");
