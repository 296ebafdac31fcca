/**
 * The Action's adapter: setup (inputs, secrets, event) → run (validate, plan or apply, through the one
 * orchestrator in src/run) → cleanup (job summary, pull-request comment, outputs, exit code), the last part
 * whatever happened in the middle, so a failed run replaces an older plan in the comment instead of
 * leaving it standing.
 */
import * as core from "@actions/core";
import { printable } from "../model/printable.ts";
import { errorMarkdown } from "../render/index.ts";
import { ExitCode, exitCodeOf } from "../run/exit-code.ts";
import { createRunRedactor } from "../run/run-redactor.ts";
import type { Env } from "../run/types.ts";
import { workspacePath } from "./annotations.ts";
import { writeCheckRuns } from "./check-runs.ts";
import { writeDrift } from "./drift-publish.ts";
import { readEvent } from "./event.ts";
import { execute } from "./execute.ts";
import { readInputs } from "./inputs.ts";
import { writeApplyComment, writePlanComment, writeSummary } from "./publish.ts";
import type { ActionReport, RunContext } from "./run-context.ts";

/** Runs the Action in this process with the runner's environment and sets its exit code (DESIGN §7). Never throws. */
export async function runAction(env: Env): Promise<void> {
  // Every secret is registered with the runner's log masking the moment it is known.
  const redactor = createRunRedactor((secret) => core.setSecret(secret));
  let ctx: RunContext;
  try {
    const inputs = readInputs(redactor, env);
    const event = readEvent(env);
    ctx = { inputs, event, configLabel: workspacePath(inputs.config, event.workspace), redactor, env };
  } catch (error) {
    return conclude(ExitCode.error, redactor.redact(messageOf(error)));
  }

  let outcome: ActionReport;
  try {
    outcome = await execute(ctx);
  } catch (error) {
    const report = { ...errorMarkdown(ctx.inputs.command, ctx.configLabel, error), exitCode: exitCodeOf(error) };
    const account = ctx.inputs.account ?? "";
    outcome = { report, accounts: [{ account, report }], fleet: [account] };
  }
  // Each place is tried on its own: a summary that could not be written must not keep the comment stale.
  const problems: string[] = [];
  const places = [writeSummary, writePlanComment, writeApplyComment, writeCheckRuns, writeDrift];
  for (const publish of places.map((write) => () => write(ctx, outcome))) {
    await publish().catch((error: unknown) => problems.push(redactor.redact(messageOf(error))));
  }
  const { exitCode, failure = "failed" } = outcome.report;
  if (exitCode === ExitCode.ok && problems.length > 0) return conclude(ExitCode.error, problems.join("; "));
  for (const problem of problems) core.error(printable(problem));
  conclude(exitCode, redactor.redact(failure));
}

/** Fails the step with `message` when `exitCode` is not 0, keeping the CLI's exit code (2, 3, 4). */
function conclude(exitCode: number, message: string): void {
  core.setOutput("exit-code", exitCode);
  if (exitCode === ExitCode.ok) return;
  // The message may quote a server or the config: escaped so that it cannot forge a log line (DESIGN §12).
  core.setFailed(printable(message));
  process.exitCode = exitCode;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
