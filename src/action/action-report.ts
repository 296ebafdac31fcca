/**
 * A run's Outcome as the Action publishes it (run-context.ts `ActionReport`): the whole run's sections for the
 * job summary and the step, and each account's for its section of the comment, its check run and its drift
 * issue, rendered once by render/ for GitHub.
 */
import type { Config } from "../config/types.ts";
import { checkRunTitle, renderAccount, renderOutcome } from "../render/index.ts";
import type { Outcome } from "../run/types.ts";
import type { ActionReport, RunContext } from "./run-context.ts";

/** An apply on merge: the pull request it merged, or `apply-unreviewed: true` run by hand. */
type Merge = { pullRequest?: number | undefined; unreviewed?: boolean } | undefined;

export function actionReport(ctx: RunContext, outcome: Outcome, merge: Merge): Pick<ActionReport, "report" | "accounts" | "fleet"> {
  const { inputs } = ctx;
  const target = { for: "github" as const, command: inputs.command, configLabel: ctx.configLabel, ...(merge ? { merge } : {}) };
  const report = { ...renderOutcome(outcome, target), exitCode: outcome.exitCode };
  const accounts = outcome.accounts.map((run) => ({
    account: run.name,
    report: { ...renderAccount(run, outcome, target), exitCode: run.exitCode },
    title: checkRunTitle(run),
    ...(run.plan ? { plan: run.plan } : {}),
    ...(run.results ? { failed: run.results.items.filter((item) => item.status === "failed") } : {}),
  }));
  return {
    report,
    // A run that ended before its accounts shows its error where this step's sections go.
    accounts: accounts.length > 0 ? accounts : [{ account: inputs.account ?? "", report, title: checkRunTitle(undefined) }],
    fleet: fleetOf(outcome.config, inputs.account),
  };
}

/**
 * The accounts of the config a leg loaded (every leg loads the same): the comment is shared among them alike.
 * One account, "", without `accounts:`; the account input's, when the config did not load.
 */
export function fleetOf(config: Config | undefined, account: string | undefined): string[] {
  if (config) return config.accounts?.map((a) => a.name) ?? [""];
  return [account ?? ""];
}
