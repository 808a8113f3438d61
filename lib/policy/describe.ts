// Conflicts in plain words for the admin page: which policies, what one requires and the other prohibits, the
// solver's witness as an example situation, and how the bundle resolves it.
import type { ConflictView } from "../domain/policy-views";
import type { CompiledBundle } from "./bundle";
import { phrase } from "./enforce";
import { readable } from "./vocabulary";

export function describeConflicts(bundle: CompiledBundle): ConflictView[] {
  const rules = new Map(bundle.conditional_rules.map((r) => [r.rule_id, r]));
  return bundle.conflicts.map((c) => {
    const [a, b] = c.rules.map((id) => rules.get(id)!);
    const requirer = a!.action.type === "required" ? a! : b!;
    const prohibiter = requirer === a ? b! : a!;
    const when = Object.entries(c.witness)
      .map(([k, v]) => `${readable(k)} is ${typeof v === "boolean" ? (v ? "yes" : "no") : v}`)
      .join(", ");
    const escalation = bundle.escalations.find(
      (e) => e.policies[0] === c.policies[0] && e.policies[1] === c.policies[1] && e.action === c.action,
    );
    return {
      policies: c.policies,
      action: c.action,
      sentence: `${requirer.policy_id} requires that the answer ${phrase(c.action)}, while ${prohibiter.policy_id} prohibits it — both apply, for example, when ${when || "always"}.`,
      resolution: c.winner
        ? `${c.winner} wins: its priority (${rules.get(c.rules.find((id) => rules.get(id)!.policy_id === c.winner)!)!.metadata.priority}) is higher.`
        : `Equal priority: escalated to ${escalation?.owners_to_notify.join(" and ") ?? "the owners"}. Until they resolve it, the prohibition holds.`,
    };
  });
}
