/**
 * The work of one Action run: validate offline (a fork's pull request), plan, or plan and apply, all through
 * the one orchestrator (src/run) the CLI uses too. The hooks log and annotate as the run goes; the Outcome
 * is rendered (src/render, the same sections as the CLI's) into a Report, which action.ts publishes.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as core from "@actions/core";
import { getOctokit } from "@actions/github";
import { readConfigBytes } from "../config/read-bounded.ts";
import type { Config, LoadResult } from "../config/types.ts";
import { UsageError } from "../errors.ts";
import { plural } from "../model/plural.ts";
import type { Plan } from "../plan/types.ts";
import {
  itemLine,
  itemNote,
  learnedRateLine,
  missingReviewWords,
  type OfflineReason,
  offlineLogLine,
  offlineMarkdown,
  type ReviewStatus,
  rateWaitLine,
  render,
  renderOutcome,
  rereadLine,
  waitLine,
} from "../render/index.ts";
import { run } from "../run/run.ts";
import type { Outcome, RunHooks, RunSettings } from "../run/types.ts";
import { writeOutput } from "../run/write-file.ts";
import { annotateChanges, annotateDiagnostics, annotateFailures } from "./annotations.ts";
import { type FoundReview, findReview } from "./find-review.ts";
import { offlineEnv } from "./offline-env.ts";
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
  const saved: { planFile?: string; plan?: Plan } = {};
  const whole = await run(
    {
      command: inputs.command,
      config: inputs.config,
      env: ctx.env,
      secrets: { apiKey: inputs.apiKey, projectsApiKey: inputs.projectsApiKey },
      settings: { ...settingsOf(ctx), ...(found ? { reviewed: found.source } : {}) },
      redactor: ctx.redactor,
    },
    hooksOf(ctx, (file, plan) => Object.assign(saved, { planFile: file, plan })),
  );
  // A leg of a fleet (the account input) reports its one account as a config of its own.
  const outcome = inputs.account && whole.accounts?.length === 1 && whole.accounts[0] ? whole.accounts[0].outcome : whole;
  if (outcome.resultsFile) core.setOutput("results-file", outcome.resultsFile);
  if (outcome.results) annotateFailures(outcome.results.items, ctx.event.workspace);
  if (inputs.command === "plan") return { report: reportOf(outcome, ctx), ...saved, ...fleetOf(whole.config) };
  const notApplied = outcome.skipped.filter((item) => item.reason === "not-reviewed").length;
  const status = reviewStatus(found, notApplied);
  setReviewOutputs(status, notApplied, outcome.results?.counts.applied ?? 0);
  const merged = found?.pullRequest ? { mergedPullRequest: found.pullRequest.number } : {};
  const report = reportOf(outcome, ctx, { status, pullRequest: found?.pullRequest?.number });
  return { report, ...(saved.planFile ? { planFile: saved.planFile } : {}), ...merged };
}

/** The Outcome in the sections every adapter shows (render/), for the job summary and the comment. */
function reportOf(outcome: Outcome, ctx: RunContext, review?: { status: ReviewStatus; pullRequest: number | undefined }): Report {
  const target = { for: "github" as const, command: outcome.command, configLabel: ctx.configLabel, ...(review ? { review } : {}) };
  return { ...renderOutcome(outcome, target), exitCode: outcome.exitCode };
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
  if (found.status === "reviewed") core.info(`Applying only what pull request #${found.pullRequest?.number} reviewed.`);
  else if ("missing" in found.source) core.warning(`Nothing reviewed to apply: ${missingReviewWords(found.source.missing)}.`);
  return found;
}

function reviewStatus(found: FoundReview | undefined, notApplied: number): ReviewStatus {
  if (!found) return "unreviewed";
  if (found.status !== "reviewed") return found.status;
  return notApplied > 0 ? "partial" : "applied";
}

function setReviewOutputs(status: ReviewStatus, notApplied: number, applied: number): void {
  core.setOutput("review-status", status);
  core.setOutput("reviewed", String(status === "applied" || status === "partial"));
  core.setOutput("not-applied", notApplied);
  core.setOutput("applied", applied);
}

function settingsOf({ inputs, env, event }: RunContext): RunSettings {
  const { target, exclude } = inputs;
  const changedSince = changeOf(inputs, event);
  return {
    syncWriteOnly: inputs.syncWriteOnly,
    ...(target.length + exclude.length > 0 ? { selection: { target, exclude } } : {}),
    ...(changedSince ? { changedSince: { ref: changedSince } } : {}),
    websitesUrl: inputs.websitesUrl,
    projectsUrl: inputs.projectsUrl,
    concurrency: inputs.concurrency,
    ...(inputs.maxDeletes === undefined ? {} : { maxDeletes: Number(inputs.maxDeletes) }),
    detailedExitcode: inputs.command === "plan" && inputs.detailedExitcode,
    ...(inputs.account ? { accounts: [inputs.account] } : {}),
    resultsFile: (plan) => join(env.RUNNER_TEMP || tmpdir(), `sitesync-results-${plan.hash.slice(0, 8)}.json`),
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

/** The log, outputs and annotations of a run as it goes; every line is redacted (the runner masks only the log). */
function hooksOf(ctx: RunContext, onPlanFile: (file: string, plan: Plan) => void): RunHooks {
  return {
    onLoad: annotateLoad(ctx),
    onPlan(plan) {
      const planFile = savePlan(plan, ctx);
      onPlanFile(planFile, plan);
      setPlanOutputs(plan, planFile);
      core.startGroup(`Plan: ${plural(plan.changes.length, "change")}`);
      core.info(ctx.redactor.redact(render(plan, "text", { color: !("NO_COLOR" in ctx.env) })));
      core.endGroup();
      annotateChanges(plan.changes, ctx.event.workspace);
    },
    onItem: (item, done, total, account) => core.info(ctx.redactor.redact(`[${done}/${total}] ${itemLine(item, account)}`)),
    onWait: (wait) => core.info(ctx.redactor.redact(waitLine(wait))),
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
  if (!config || outcome.error !== undefined) return { report: reportOf({ ...outcome, command: ctx.inputs.command }, ctx) };
  core.info(offlineLogLine(ctx.configLabel, reason));
  const projects = config.projects?.length;
  const facts = { reason, websites: config.websites.length, projects, standIns, warnings: outcome.warnings };
  return { report: { ...offlineMarkdown(ctx.configLabel, facts), exitCode: outcome.exitCode }, ...fleetOf(config) };
}

/** The accounts of the config a leg loaded (every leg loads the same): the fleet's comment is shared among them. */
function fleetOf(config: Config | undefined): Pick<ActionReport, "accounts"> {
  const names = config?.accounts?.map((account) => account.name);
  return names ? { accounts: names } : {};
}

/** The config's text for the stand-ins, bounded like every config read (DESIGN §12); the run reads it again itself. */
function readSource(file: string): string | undefined {
  const bytes = readConfigBytes(file);
  return typeof bytes === "string" ? undefined : bytes.toString("utf8");
}

/**
 * The plan as JSON (it holds no secret of ours: DESIGN §3; a live name echoing a key is redacted string by
 * string), named by its hash so two configs never collide.
 */
function savePlan(plan: Plan, ctx: RunContext): string {
  const file = join(ctx.env.RUNNER_TEMP || tmpdir(), `sitesync-plan-${plan.hash.slice(0, 8)}.json`);
  writeOutput(file, `${ctx.redactor.json(plan)}\n`);
  return file;
}

function setPlanOutputs(plan: Plan, planFile: string): void {
  core.setOutput("has-changes", String(plan.changes.length > 0));
  core.setOutput("creates", plan.summary.create);
  core.setOutput("updates", plan.summary.update);
  core.setOutput("deletes", plan.summary.delete);
  core.setOutput("plan-file", planFile);
}
