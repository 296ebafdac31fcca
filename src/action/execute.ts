/**
 * The work of one Action run: validate offline (a fork's pull request), plan, plan and apply, or a drift check,
 * all through the one orchestrator (src/run) the CLI uses too. The hooks log as the run goes; the Outcome is
 * rendered (src/render, the same sections as the CLI's) into a Report, which action.ts publishes (the
 * comment, the check runs and their annotations, the drift issue or pull request).
 */
import * as core from "@actions/core";
import { getOctokit } from "@actions/github";
import { readConfigBytes } from "../config/read-bounded.ts";
import type { LoadResult } from "../config/types.ts";
import { UsageError } from "../errors.ts";
import { plural } from "../model/plural.ts";
import {
  itemLine,
  itemNote,
  learnedRateLine,
  missingReviewWords,
  type OfflineReason,
  offlineLogLine,
  offlineMarkdown,
  rateWaitLine,
  render,
  renderOutcome,
  rereadLine,
  waitLine,
} from "../render/index.ts";
import { run } from "../run/run.ts";
import type { RunHooks } from "../run/run-hooks.ts";
import { toRunSettings } from "../run/to-run-settings.ts";
import type { RunSettings } from "../run/types.ts";
import { actionReport, fleetOf } from "./action-report.ts";
import { annotateDiagnostics } from "./annotations.ts";
import { driftOf, withAdoptions } from "./drift.ts";
import { type FoundReview, findReview } from "./find-review.ts";
import { offlineEnv } from "./offline-env.ts";
import { runnerFile, savePlan, setOutputs } from "./outputs.ts";
import type { ActionReport, Report, RunContext } from "./run-context.ts";

/** Runs the command the inputs ask for and says how it went. Errors before the run throw; run() reports them. */
export async function execute(ctx: RunContext): Promise<ActionReport> {
  const offline = offlineReason(ctx);
  if (offline) return validateOffline(ctx, offline);
  if (!ctx.inputs.apiKey) {
    throw new UsageError("no API key: set the api-key input, e.g. `api-key: ${{ secrets.SITESYNC_API_KEY }}`");
  }
  const { inputs } = ctx;
  const found = inputs.command === "apply" ? await reviewFor(ctx) : undefined;
  const planFiles = new Map<string, string>();
  const outcome = await run(
    {
      command: inputs.command,
      config: inputs.config,
      env: ctx.env,
      // The environment's keys are each account's own to take, by its variables: only the inputs are the step's.
      secrets: inputs.keysGiven,
      settings: settingsOf(ctx),
      given: found?.given,
      redactor: ctx.redactor,
    },
    hooksOf(ctx, planFiles),
  );
  setOutputs(outcome, planFiles, inputs.command === "apply" && !found);
  const drift = inputs.command === "drift" ? await driftOf(ctx, outcome) : undefined;
  const merge = inputs.command === "apply" ? { pullRequest: found?.pullRequest?.number, unreviewed: !found } : undefined;
  const [planFile] = planFiles.size === 1 ? planFiles.values() : [];
  const published = actionReport(ctx, outcome, merge);
  return {
    ...published,
    ...(drift ? { report: withAdoptions(published.report, drift) } : {}),
    ...(planFile ? { planFile } : {}),
    ...(found?.pullRequest ? { mergedPullRequest: found.pullRequest.number } : {}),
    ...(drift ? { drift } : {}),
  };
}

/**
 * What `apply` may apply: on a push, the reviewed plan of the pull request it merged (or why there is
 * none); with `apply-unreviewed: true`, run by hand, everything (no review is looked for).
 */
async function reviewFor(ctx: RunContext): Promise<FoundReview | undefined> {
  const { inputs, event } = ctx;
  if (inputs.applyUnreviewed) {
    if (event.name !== "workflow_dispatch") {
      throw new UsageError(
        `apply-unreviewed: true is honoured only when a person runs the workflow by hand (workflow_dispatch), not on ${event.name || "this event"}: ` +
          "pass it from an input of workflow_dispatch, as examples/workflows/sitesync.yml does",
      );
    }
    core.warning("apply-unreviewed: true: applying the current plan without a reviewed plan, as asked by whoever started this run.");
    return undefined;
  }
  const octokit = inputs.githubToken ? getOctokit(inputs.githubToken) : undefined;
  let found: FoundReview;
  try {
    found = await findReview(ctx, octokit);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new Error(`could not read the reviewed plan from GitHub: ${(error as Error).message}`, { cause: error });
  }
  const { reviewedByAccount, otherwise } = found.given;
  if (reviewedByAccount.size > 0) core.info(`Applying only what pull request #${found.pullRequest?.number} reviewed.`);
  else core.warning(`Nothing reviewed to apply: ${missingReviewWords(otherwise)}.`);
  return found;
}

function settingsOf(ctx: RunContext): RunSettings {
  const { inputs, event } = ctx;
  const values = { ...inputs.settings, changedSince: changeOf(inputs, event) };
  return {
    ...toRunSettings(values, inputs.command),
    resultsFile: runnerFile(ctx, "sitesync-results", `${ctx.configLabel}#${inputs.account ?? ""}`),
  };
}

/**
 * The change the plan follows (DESIGN §3, §7): the `changed-since` input, else on a pull request its base
 * commit. On the merge, a reviewed plan's own base wins (run/reviewed.ts), so nothing is needed here.
 */
function changeOf(inputs: RunContext["inputs"], event: RunContext["event"]): string | undefined {
  if (inputs.changedSince === "none") return undefined;
  return inputs.changedSince ?? (inputs.command === "plan" ? event.pullRequest?.baseSha : undefined);
}

/** The log and annotations of a run as it goes; every line is redacted (the runner masks only the log). */
function hooksOf(ctx: RunContext, planFiles: Map<string, string>): RunHooks {
  return {
    onLoad: annotateLoad(ctx),
    onPlan(plan, _skipped, account) {
      planFiles.set(account, savePlan(plan, ctx));
      core.startGroup(`Plan${account === "" ? "" : ` of account ${account}`}: ${plural(plan.changes.length, "change")}`);
      core.info(ctx.redactor.redact(render(plan, "text", { color: !("NO_COLOR" in ctx.env), surface: "action" })));
      core.endGroup();
    },
    onItem: (item, done, total, account) => core.info(ctx.redactor.redact(`[${done}/${total}] ${itemLine(item, account)}`)),
    onWait: (wait) => core.info(ctx.redactor.redact(waitLine(wait, "action"))),
    // A log, not a terminal: one line per wait of a second or more, and each re-read with its reason (DESIGN §5).
    onProgress(event) {
      if (event.kind === "reread") core.info(ctx.redactor.redact(rereadLine(event)));
      else if (event.kind === "rate-wait" && event.phase === "start") core.info(ctx.redactor.redact(rateWaitLine(event)));
    },
    onRateLearned: (learned) => core.info(ctx.redactor.redact(learnedRateLine(learned))),
    noteOf: itemNote,
  };
}

/** Config errors and warnings, as annotations at their line. */
function annotateLoad(ctx: RunContext): (result: LoadResult) => void {
  return (result) => annotateDiagnostics(result.ok ? result.warnings : [...result.errors, ...result.warnings], ctx.event.workspace);
}

/** Why this run must not use the API, if it must not: the key never goes where a fork's config points. */
function offlineReason(ctx: RunContext): OfflineReason | undefined {
  const pr = ctx.event.pullRequest;
  if (!pr) return undefined;
  if (ctx.inputs.command === "apply") {
    if (pr.fork) throw new UsageError("apply does not run for a pull request from a fork: its config is not trusted with the API key");
    return undefined;
  }
  if (pr.fork) return "fork";
  if (!ctx.inputs.apiKey) {
    core.warning(
      "No api-key was given, so the config was only validated. Pass api-key: ${{ secrets.SITESYNC_API_KEY }} (and check that the secret exists) to get a plan.",
    );
    return "no-api-key";
  }
  return undefined;
}

async function validateOffline(ctx: RunContext, reason: OfflineReason): Promise<ActionReport> {
  const { env, standIns } = offlineEnv(readSource(ctx.inputs.config) ?? "", ctx.env);
  const outcome = await run({ command: "validate", config: ctx.inputs.config, env, redactor: ctx.redactor }, { onLoad: annotateLoad(ctx) });
  const config = outcome.config;
  const fleet = fleetOf(config, ctx.inputs.account);
  const own = (report: Report) =>
    fleet.filter((name) => !ctx.inputs.account || name === ctx.inputs.account).map((account) => ({ account, report }));
  if (!config || outcome.error !== undefined) {
    const target = { for: "github" as const, command: ctx.inputs.command, configLabel: ctx.configLabel };
    const report = { ...renderOutcome({ ...outcome, command: ctx.inputs.command }, target), exitCode: outcome.exitCode };
    return { report, accounts: own(report), fleet, offline: true };
  }
  core.info(offlineLogLine(ctx.configLabel, reason));
  const projects = config.projects?.length;
  const facts = { reason, websites: config.websites.length, projects, standIns, warnings: outcome.warnings };
  const report = { ...offlineMarkdown(ctx.configLabel, facts), exitCode: outcome.exitCode };
  return { report, accounts: own(report), fleet, offline: true };
}

/** The config's text for the stand-ins, bounded like every config read (DESIGN §12); the run reads it again itself. */
function readSource(file: string): string | undefined {
  const bytes = readConfigBytes(file);
  return typeof bytes === "string" ? undefined : bytes.toString("utf8");
}
