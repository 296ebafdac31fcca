/**
 * The one orchestrator of the CLI and the Action (DESIGN §1, §9): load → the accounts to run, each checked
 * before any request → each account's step (export, adopt, or plan → apply) → an Outcome that says what
 * happened, account by account, and which exit code it means. Errors end the run (or one account's run)
 * inside the Outcome, never as a throw, so an adapter always has something to display.
 */
import { loadConfig } from "../config/load.ts";
import type { Config } from "../config/types.ts";
import { ApiError, ConfigError, UsageError } from "../errors.ts";
import { accountSpecs } from "./account-specs.ts";
import { ExitCode, exitCodeOf, stopSignalOf, worstExitCode } from "./exit-code.ts";
import { writeResults } from "./results-file.ts";
import { runAccounts } from "./run-accounts.ts";
import type { RunHooks } from "./run-hooks.ts";
import { openScope } from "./scope.ts";
import type { Outcome, RunRequest } from "./types.ts";
import { checkWritable } from "./write-file.ts";

/** Runs `request.command` and says how it went. Never throws. */
export async function run(request: RunRequest, hooks: RunHooks = {}): Promise<Outcome> {
  const outcome: Outcome = { command: request.command, warnings: [], accounts: [], exitCode: ExitCode.ok };
  try {
    await execute(request, hooks, outcome);
  } catch (error) {
    outcome.error = error;
  }
  const stoppedBy = stopSignalOf(request.signal);
  if (stoppedBy && outcome.error instanceof ApiError && outcome.error.kind === "stopped") outcome.interrupted = stoppedBy;
  if (outcome.interrupted) outcome.exitCode = ExitCode[outcome.interrupted];
  else if (outcome.error !== undefined) outcome.exitCode = exitCodeOf(outcome.error);
  else outcome.exitCode = worstExitCode(outcome.accounts.map((account) => account.exitCode));
  return outcome;
}

async function execute(request: RunRequest, hooks: RunHooks, outcome: Outcome): Promise<void> {
  const scope = openScope(request, hooks);
  const { command, settings } = scope;
  // Each command loads the modules only it needs: `validate` pays for no HTTP client, `plan` for no adopt
  // (about 50 ms of CPU a run; DESIGN §8).
  if (command === "export") {
    const { checkExportFile, exportSpec, exportStep } = await import("./export-step.ts");
    // Before any request: a hand-written config is never overwritten by accident.
    checkExportFile(settings);
    outcome.accounts = await runAccounts(scope, [exportSpec(scope, request.secrets)], exportStep);
    return;
  }
  if (command === "adopt") {
    const { adoptStep, loadForAdopt } = await import("./adopt-step.ts");
    const loaded = await loadForAdopt(request, outcome);
    const specs = accountSpecs(scope, loaded.config, request.secrets);
    outcome.accounts = await runAccounts(scope, specs, adoptStep(loaded, specs, settings.into ?? []));
    return;
  }
  const config = await load(request, hooks, outcome);
  if (command === "validate") return;
  if (command === "matrix") {
    const { fleetMatrix } = await import("./matrix.ts");
    outcome.matrix = await fleetMatrix(config, request.env, settings.changedSince?.ref);
    return;
  }
  const specs = accountSpecs(scope, config, request.secrets);
  // Fail before changing anything when the results cannot be written afterwards.
  if (command === "apply" && settings.resultsFile !== undefined) checkWritable(settings.resultsFile);
  const { planStep } = await import("./plan-step.ts");
  outcome.accounts = await runAccounts(scope, specs, planStep);
  if (command === "apply") outcome.resultsFile = writeResults(scope, outcome.accounts);
}

/** Loads the config (unless given loaded); its secrets are redacted before any diagnostic is shown. */
async function load(request: RunRequest, hooks: RunHooks, outcome: Outcome): Promise<Config> {
  if (request.config === undefined) throw new UsageError(`sitesync ${request.command} needs a config`);
  if (typeof request.config !== "string") {
    request.redactor.add(request.config.secrets);
    outcome.config = request.config;
    return request.config;
  }
  // validate and matrix need no secret (DESIGN §2): an unset ${VAR} is a note there, unless --strict-env.
  const offline = request.command === "validate" || request.command === "matrix";
  const unsetEnv = offline && !request.settings?.strictEnv ? "warning" : "error";
  // Each value read from the environment is a secret from the moment it is read.
  const onSecret = (value: string) => request.redactor.add([value]);
  const result = await loadConfig(request.config, { env: request.env, unsetEnv, onSecret });
  if (result.ok) request.redactor.add(result.config.secrets);
  outcome.warnings = result.warnings;
  hooks.onLoad?.(result);
  if (!result.ok) throw new ConfigError(result.errors);
  outcome.config = result.config;
  return result.config;
}
