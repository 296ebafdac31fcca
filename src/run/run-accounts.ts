/**
 * Runs each account's step (DESIGN §2, §6): accounts on different servers side by side, accounts on one
 * server one after the other (they share its budget through the run's scheduler for that server), and an
 * interactive apply account by account, so that each prompt follows its own plan. What ends one account's
 * run (an error, an unset key) ends it alone; the others run.
 */
import { ApiError } from "../errors.ts";
import { isResendOnly } from "../plan/follow-change.ts";
import { runOrder } from "./account-specs.ts";
import { ExitCode, exitCodeOfRun, stopSignalOf } from "./exit-code.ts";
import { decideReview } from "./review-status.ts";
import type { AccountSpec, RunScope } from "./scope.ts";
import type { AccountRun } from "./types.ts";

/** One account's part of a command: it fills in `run` (plan, results, export...), or throws. */
export type AccountStep = (scope: RunScope, spec: AccountSpec, run: AccountRun) => Promise<void>;

/** Every account's run, in the order of `specs` (the root file's). */
export async function runAccounts(scope: RunScope, specs: readonly AccountSpec[], step: AccountStep): Promise<AccountRun[]> {
  const runs = new Map<string, AccountRun>();
  const groups = runOrder(specs, scope.hooks.approve !== undefined);
  await Promise.all(
    groups.map(async (group) => {
      for (const spec of group) runs.set(spec.name, await runAccount(scope, spec, step));
    }),
  );
  return specs.map((spec) => runs.get(spec.name)!);
}

async function runAccount(scope: RunScope, spec: AccountSpec, step: AccountStep): Promise<AccountRun> {
  const target = {
    ...(spec.address ? { websites: spec.address } : {}),
    ...(spec.config?.projectsUrl ? { projects: spec.config.projectsUrl } : {}),
  };
  const run: AccountRun = { name: spec.name, target, keys: spec.keys, skipped: [], exitCode: ExitCode.ok };
  scope.hooks.onAccountStart?.(spec.name, target);
  try {
    await step(scope, spec, run);
  } catch (error) {
    run.error = error;
  }
  const stoppedBy = stopSignalOf(scope.signal);
  // Cancelling at the prompt is not an interruption: nothing was started, and it exits 1.
  if (stoppedBy && (run.results || (run.error instanceof ApiError && run.error.kind === "stopped"))) run.interrupted = stoppedBy;
  const review = decideReview(scope.given, run);
  if (review) run.review = review;
  run.exitCode = exitCodeOf(run, scope.settings.detailedExitcode ?? false);
  scope.hooks.onAccountEnd?.(run);
  return run;
}

function exitCodeOf(run: AccountRun, detailedExitcode: boolean): number {
  return exitCodeOfRun({
    interrupted: run.interrupted,
    error: run.error,
    refused: (run.plan?.refusals.length ?? 0) > 0,
    // Re-sends of what applying the change already sent are shown and applied, but are no drift (DESIGN §3).
    changes: run.plan?.changes.filter((change) => !isResendOnly(change)).length ?? 0,
    detailedExitcode,
    updateRefused: run.adopted?.files.some((file) => !file.result.ok) ?? false,
    ...(run.results && {
      applied: {
        aborted: run.results.aborted !== undefined,
        failed: run.results.counts.failed,
        skipped: run.skipped.length,
        unconverged: run.unconverged?.length ?? 0,
      },
    }),
  });
}
