/** Reading a plan saved by `plan --out` back, refusing one that was altered, refused, or made elsewhere. */
import { loadConfig } from "../config/load.ts";
import { configDigest, readBounded, readConfigBytes } from "../config/read-bounded.ts";
import { planValidator } from "../config/schema-validators.ts";
import type { Config } from "../config/types.ts";
import { SafetyError, UsageError } from "../errors.ts";
import { isSealed } from "../plan/fingerprint.ts";
import { targetMismatch } from "../plan/target.ts";
import type { Plan } from "../plan/types.ts";

/**
 * Reads a plan saved by `sitesync plan --out` (or `render(plan, "json")`), for `apply` to execute later.
 * Throws a `UsageError` for a file that is not such a plan, and a `SafetyError` for one that was edited after
 * it was saved (its hash) or was refused when it was made. Before applying it, confirm it against a fresh
 * plan with `confirmSavedPlan`: the hash detects accidents, that check is what stops a forged file.
 */
export function readSavedPlan(file: string): Plan {
  const plan = readPlanFile(file);
  if (plan.refusals.length > 0) {
    throw new SafetyError(
      plan.refusals[0]!.code,
      `${file} was refused when it was made (${plan.refusals.map((r) => r.code).join(", ")}): plan again, and save a plan no rail refuses`,
    );
  }
  return plan;
}

/**
 * The integrity checks of a saved plan, without judging what it says (`sitesync show`): a `UsageError` (exit 1)
 * for a file that cannot be read or is not a plan of this version (JSON, then the plan schema), a
 * `SafetyError` (exit 4) for one whose hash does not match its content.
 */
/**
 * A saved plan of 100,000 changes is about 40 MiB of JSON: 256 MiB is over 4x that (DESIGN §12), and still
 * parses within memory. The cap is fixed.
 */
const MAX_PLAN_BYTES = 256 * 2 ** 20;

export function readPlanFile(file: string): Plan {
  // Bounded like a config (DESIGN §12): a plan path may name a FIFO or a device.
  const bytes = readBounded(file, MAX_PLAN_BYTES, "a saved plan", "over 4 times a plan of 100,000 changes; the cap is fixed");
  if (typeof bytes === "string") throw new UsageError(`cannot read the plan file ${file}: ${bytes}`);
  const text = bytes.toString("utf8");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not a plan saved by \`sitesync plan --out\`: ${(error as Error).message}`);
  }
  const validatePlan = planValidator();
  if (!validatePlan(data)) {
    const first = validatePlan.errors?.[0];
    const where = first ? ` (${first.instancePath || "/"} ${first.message})` : "";
    throw new UsageError(`${file} is not a plan saved by this version of \`sitesync plan --out\`${where}: plan again`);
  }
  const plan = data as Plan;
  if (!isSealed(plan)) {
    throw new SafetyError("plan-altered", `${file} was changed after it was saved (its hash does not match): plan again`);
  }
  return plan;
}

/**
 * Whether the config file a saved plan was made from still holds the same bytes: `missing` when it cannot be
 * read (a plan can be shown anywhere), `changed` when `apply` would refuse the plan (DESIGN §3), with the
 * root's name, or the root's "or a file it includes" when it has `include:` (the plan holds one digest).
 */
export async function configState(
  plan: Plan,
  file: string = plan.configFile,
): Promise<{ state: "same" | "changed" | "missing"; which: string }> {
  // Bounded like the config itself: the path comes from the plan file, and may name a FIFO or a device.
  const bytes = readConfigBytes(file);
  if (typeof bytes === "string") return { state: "missing", which: plan.configFile };
  // A config of many files has the digest of them all (DESIGN §2); no secret is needed to compute it.
  const loaded = await loadConfig(file, { env: {}, unsetEnv: "warning" });
  const same = (loaded.ok ? loaded.config.digest : configDigest(bytes)) === plan.configDigest;
  return { state: same ? "same" : "changed", which: loaded.ok ? changedWhich(loaded.config) : plan.configFile };
}

/** The root file, or "it or a file it includes": where a change that moved the config's digest may be. */
function changedWhich(config: Pick<Config, "file" | "includes">): string {
  return config.includes ? `${config.file} or a file it includes` : config.file;
}

/**
 * A saved plan applies only to the exact config it was made from (DESIGN §3). The plan holds one digest over
 * all the config's files, so with `include:` the change may be in any of them.
 */
export function assertSameConfig(plan: Plan, config: Pick<Config, "digest" | "file" | "includes">): void {
  if (plan.configDigest !== config.digest) {
    throw new SafetyError(
      "stale-config",
      `${changedWhich(config)} changed since the plan was saved: run \`sitesync plan --out\` again and review the new plan`,
    );
  }
}

/** ...and only to the account it was read from: ids and fingerprints of a cloned account would match too. */
export function assertSameTarget(plan: Plan, target: Plan["target"]): void {
  const mismatch = targetMismatch(plan.target, target);
  if (mismatch) {
    const { api, planned, actual } = mismatch;
    throw new SafetyError(
      "other-account",
      `the plan was made against ${planned}, not ${actual ?? "(no URL given)"}: apply it with the same --${api}-url, or plan again`,
    );
  }
}

/**
 * Why `data` is not a plan as `plan --out` writes it (the plan schema, then its hash), or `undefined` when it
 * is one. For plans read from elsewhere than a file, such as the reviewed plan in a pull-request comment.
 */
export function planDataProblem(data: unknown): string | undefined {
  const validatePlan = planValidator();
  if (!validatePlan(data)) {
    const first = validatePlan.errors?.[0];
    return `it is not a plan of this version of sitesync${first ? ` (${first.instancePath || "/"} ${first.message})` : ""}`;
  }
  return isSealed(data as Plan) ? undefined : "its hash does not match its content";
}
