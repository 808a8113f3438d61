// Kill switches (issue 15, seed 004 §8): per tenant, set by its admins or by operators (for a tenant or the whole
// deployment). Read once per request — the state a request started with is the state it finishes with. Grounding
// itself has no switch: citation validation and the policy filter always run.
import { CasegraphError } from "../domain/failure-codes";

export const KILL_SWITCHES = ["DISABLE_ANSWER_REUSE", "DISABLE_MODEL", "DISABLE_EXPORTS"] as const;
export type KillSwitchName = (typeof KILL_SWITCHES)[number];
export type KillSwitchState = Readonly<Record<KillSwitchName, boolean>>;

/** The deployment-wide row's tenant id. */
export const ALL_TENANTS = "*";

export const ALL_OFF: KillSwitchState = { DISABLE_ANSWER_REUSE: false, DISABLE_MODEL: false, DISABLE_EXPORTS: false };

export function parseSwitchName(raw: string): KillSwitchName {
  const name = raw.trim().toUpperCase();
  if (!(KILL_SWITCHES as readonly string[]).includes(name)) {
    throw new CasegraphError("CG-GROUND-010", undefined, [{ path: "name", message: `one of ${KILL_SWITCHES.join(", ")}` }]);
  }
  return name as KillSwitchName;
}

export function parseSwitchValue(raw: string): boolean {
  const v = raw.trim().toLowerCase();
  if (v === "on") return true;
  if (v === "off") return false;
  throw new CasegraphError("CG-GROUND-010", undefined, [{ path: "value", message: "on or off" }]);
}

/** A switch is on for a tenant when its own row or the deployment's row says so (either can stop it; rows are absent = off). */
export function effectiveSwitches(
  rows: ReadonlyArray<{ tenantId: string; name: string; enabled: boolean }>,
  tenantId: string,
): KillSwitchState {
  const state: Record<KillSwitchName, boolean> = { ...ALL_OFF };
  for (const r of rows) {
    if ((r.tenantId === tenantId || r.tenantId === ALL_TENANTS) && r.enabled && (KILL_SWITCHES as readonly string[]).includes(r.name)) {
      state[r.name as KillSwitchName] = true;
    }
  }
  return state;
}
