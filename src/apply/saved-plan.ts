/** Reading a plan saved by `plan --out` back, refusing one that was altered or made from another config. */
import { readFileSync } from "node:fs";
import { SafetyError, UsageError } from "../errors.ts";
import { planHash } from "../plan/fingerprint.ts";
import type { Plan } from "../plan/types.ts";

export function readSavedPlan(file: string): Plan {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the plan file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let plan: Plan;
  try {
    plan = JSON.parse(text) as Plan;
  } catch (error) {
    throw new UsageError(`${file} is not a plan saved by \`sitesync plan --out\`: ${(error as Error).message}`);
  }
  if (plan?.format !== "sitesync-plan" || plan.version !== 1 || !Array.isArray(plan.changes)) {
    throw new UsageError(`${file} is not a plan saved by \`sitesync plan --out\` (format sitesync-plan, version 1)`);
  }
  const { hash, ...rest } = plan;
  if (planHash(rest) !== hash) {
    throw new SafetyError("plan-altered", `${file} was changed after it was saved (its hash does not match): plan again`);
  }
  return plan;
}

/** A saved plan applies only to the exact config it was made from (DESIGN §3). */
export function assertSameConfig(plan: Plan, configDigest: string, file: string): void {
  if (plan.configDigest !== configDigest) {
    throw new SafetyError(
      "stale-config",
      `${file} changed since the plan was saved: run \`sitesync plan --out\` again and review the new plan`,
    );
  }
}
