/**
 * The one orchestrator of the CLI and the Action (DESIGN §1, §9): load → read live → plan → (apply →
 * results → verify), and an Outcome that says what happened and which exit code it means. Errors end the
 * run inside the Outcome, never as a throw, so an adapter always has something to display.
 */
import type { Redactor } from "../api/redact.ts";
import type { Client } from "../api/types.ts";
import { apply } from "../apply/apply.ts";
import { countItems } from "../apply/count-items.ts";
import { loadConfig } from "../config/load.ts";
import type { Config } from "../config/types.ts";
import { ApiError, ConfigError, UsageError } from "../errors.ts";
import type { Plan } from "../plan/types.ts";
import { clientFor } from "./client-for.ts";
import { ExitCode, exitCodeOf, exitCodeOfRun, stopSignalOf } from "./exit-code.ts";
import { exportAccount, updateFromAccount } from "./export-account.ts";
import { assertSameConfig, assertSameTarget } from "./plan-file.ts";
import { passwordsOf, planFromConfig } from "./plan-from-config.ts";
import { baseOf } from "./read-for-change.ts";
import { type Checked, confirmSaved, intersectWithReview } from "./reviewed.ts";
import { runAccounts, worstExitCode } from "./run-accounts.ts";
import type { Env, Outcome, RunHooks, RunRequest, RunSettings } from "./types.ts";
import { checkWritable, writeOutput } from "./write-file.ts";

/** Runs `request.command` and says how it went. Never throws. */
export async function run(request: RunRequest, hooks: RunHooks = {}): Promise<Outcome> {
  return runStep(request, (outcome) => execute(request, hooks, outcome));
}

/** Runs `step` into a new Outcome, with the exit code that means. Never throws. */
async function runStep(request: RunRequest, step: (outcome: Outcome) => Promise<void>): Promise<Outcome> {
  const outcome: Outcome = { command: request.command, warnings: [], skipped: [], exitCode: ExitCode.ok };
  try {
    await step(outcome);
  } catch (error) {
    outcome.error = error;
  }
  // Cancelling at the prompt is not an interruption: nothing was started, and it exits 1.
  const stoppedBy = stopSignalOf(request.signal);
  if (stoppedBy && (outcome.results || (outcome.error instanceof ApiError && outcome.error.kind === "stopped"))) {
    outcome.interrupted = stoppedBy;
  }
  if (outcome.accounts) {
    outcome.exitCode = outcome.error === undefined ? worstExitCode(outcome.accounts) : exitCodeOf(outcome.error);
    return outcome;
  }
  outcome.exitCode = exitCodeOfRun({
    interrupted: outcome.interrupted,
    error: outcome.error,
    refused: (outcome.plan?.refusals.length ?? 0) > 0,
    changes: outcome.plan?.changes.length ?? 0,
    detailedExitcode: request.settings?.detailedExitcode ?? false,
    updateRefused: outcome.updated?.files.some((file) => !file.result.ok) ?? false,
    ...(outcome.results && {
      applied: {
        aborted: outcome.results.aborted !== undefined,
        failed: outcome.results.counts.failed,
        skipped: outcome.skipped.length,
        unconverged: outcome.unconverged?.length ?? 0,
      },
    }),
  });
  return outcome;
}

async function execute(request: RunRequest, hooks: RunHooks, outcome: Outcome): Promise<void> {
  const settings = request.settings ?? {};
  if (request.command === "export") {
    return settings.export?.update ? updateFromAccount(request, hooks, outcome, runStep) : exportAccount(request, hooks, outcome);
  }
  const config = await load(request, hooks, outcome);
  if (request.command === "validate") return;
  if (config.accounts) {
    outcome.accounts = await runAccounts(request, hooks, config, run);
    return;
  }
  const client = clientFor(request, config, hooks);
  const saved = settings.savedPlan;
  if (saved) {
    assertSameConfig(saved, config);
    assertSameTarget(saved, client.target);
  }
  // Fail before changing anything when the results cannot be written afterwards.
  if (request.command === "apply" && typeof settings.resultsFile === "string") checkWritable(settings.resultsFile);
  const { plan, skipped } = await planned(config, client, settings, request.env, outcome);
  outcome.plan = plan;
  outcome.skipped = skipped;
  await hooks.onPlan?.(plan, skipped);
  if (request.command !== "apply" || plan.refusals.length > 0) return;
  if (plan.changes.length === 0 && skipped.length === 0) return;
  await hooks.approve?.(plan);
  const context = { config, client, settings, env: request.env, hooks, redactor: request.redactor, signal: request.signal };
  await applyPlan(plan, context, outcome);
}

/** The plan to show or apply, and the changes skipped on purpose: a saved plan confirmed, a review intersected, or a fresh plan. */
async function planned(config: Config, client: Client, settings: RunSettings, env: Env, outcome: Outcome): Promise<Checked> {
  if (settings.savedPlan) {
    const checked = await confirmSaved(settings.savedPlan, config, client, settings, env);
    outcome.notInSavedPlan = checked.notInSavedPlan;
    return checked;
  }
  if (settings.reviewed) {
    const checked = await intersectWithReview(settings.reviewed, config, client, settings, env);
    outcome.review = checked.review;
    return checked;
  }
  return { plan: await planFromConfig(config, client, settings, env), skipped: [] };
}

/** Loads the config (unless given loaded); its secrets are redacted before any diagnostic is shown. */
async function load(request: RunRequest, hooks: RunHooks, outcome: Outcome): Promise<Config> {
  if (request.config === undefined) throw new UsageError(`sitesync ${request.command} needs a config`);
  if (typeof request.config !== "string") {
    request.redactor.add(request.config.secrets);
    outcome.config = request.config;
    return request.config;
  }
  // validate needs no secret (DESIGN §2): an unset ${VAR} is a note there, unless --strict-env.
  const unsetEnv = request.command === "validate" && !request.settings?.strictEnv ? "warning" : "error";
  // Each value read from the environment is a secret from the moment it is read (issue 12).
  const onSecret = (value: string) => request.redactor.add([value]);
  const result = await loadConfig(request.config, { env: request.env, unsetEnv, onSecret });
  if (result.ok) request.redactor.add(result.config.secrets);
  outcome.warnings = result.warnings;
  hooks.onLoad?.(result);
  if (!result.ok) throw new ConfigError(result.errors);
  outcome.config = result.config;
  return result.config;
}

interface ApplyContext {
  config: Config;
  client: Client;
  settings: RunSettings;
  env: Env;
  hooks: RunHooks;
  redactor: Redactor;
  signal: AbortSignal | undefined;
}

/** Applies, writes the results, and with `verify` plans again: whatever is still planned did not converge. */
async function applyPlan(
  plan: Plan,
  { config, client, settings, env, hooks, redactor, signal }: ApplyContext,
  outcome: Outcome,
): Promise<void> {
  const onItem = hooks.onItem;
  const options = { passwordOf: passwordsOf(config), ...(onItem ? { onItem } : {}), ...(signal ? { stop: signal } : {}) };
  const result = await apply(plan, client, options);
  const items = [...result.items, ...outcome.skipped];
  const interrupted = stopSignalOf(signal);
  outcome.results = {
    counts: countItems(items, plan.summary.unchanged),
    items,
    ...(result.aborted ? { aborted: result.aborted } : {}),
    ...(interrupted ? { interrupted } : {}),
  };
  const file = typeof settings.resultsFile === "function" ? settings.resultsFile(plan) : settings.resultsFile;
  if (file) {
    // Each item's reason in words too, for a person reading the file; no code reads them back.
    const words = hooks.noteOf ?? (() => undefined);
    const report = { ...outcome.results, items: items.map((item) => ({ ...item, note: words(item) })) };
    writeOutput(file, `${redactor.json(report)}\n`);
    outcome.resultsFile = file;
  }
  // Skipped items were not applied on purpose: verifying them would only report them again.
  if (settings.verify && !result.aborted && !signal?.aborted && outcome.skipped.length === 0) {
    // A saved plan is verified within the selection it recorded (it refuses --target/--exclude of its own).
    const selection = settings.savedPlan ? settings.savedPlan.selection : settings.selection;
    // Over the change the plan followed, sending nothing for it: a write-only value sent cannot be read back.
    const base = baseOf(plan.since);
    const changedSince = base && { ...base, sendNothing: true };
    const again = await planFromConfig(config, client, { ...settings, selection, syncWriteOnly: false, changedSince }, env);
    outcome.unconverged = again.changes;
  }
}
