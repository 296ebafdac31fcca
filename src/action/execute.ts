/**
 * The work of one Action run: validate offline (a fork's pull request), plan, or plan and apply, all through
 * the one orchestrator (src/run) the CLI uses too. The hooks log and annotate as the run goes; the Outcome
 * becomes a Report, which run.ts publishes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as core from "@actions/core";
import { getOctokit } from "@actions/github";
import type { Redactor } from "../api/redact.ts";
import type { LoadResult } from "../config/types.ts";
import { UsageError } from "../errors.ts";
import type { Plan } from "../plan/types.ts";
import { itemLine, render, waitLine } from "../render/index.ts";
import { run } from "../run/run.ts";
import type { Env, RunHooks, RunSettings } from "../run/types.ts";
import { annotateChanges, annotateDiagnostics, annotateFailures } from "./annotations.ts";
import type { ActionEvent } from "./event.ts";
import { type FoundReview, findReview, type ReviewStatus } from "./find-review.ts";
import type { ActionInputs } from "./inputs.ts";
import { offlineEnv } from "./offline-env.ts";
import { offlineReport, type Report, reportOf } from "./report.ts";
import { withReview } from "./review-report.ts";

export interface RunContext {
  inputs: ActionInputs;
  event: ActionEvent;
  /** The config path relative to the checkout: the comment marker and headings name it. */
  configLabel: string;
  redactor: Redactor;
  env: Env;
}

export interface ActionReport {
  report: Report;
  /** Set once a plan was made; the job summary points to it when it has to cut the plan. */
  planFile?: string;
  /** The plan of a `plan` run, carried in the pull-request comment as the reviewed plan. */
  plan?: Plan;
  /** An apply on merge: the pull request it merged, where its outcome is commented too. */
  mergedPullRequest?: number;
}

/** Runs the command the inputs ask for and says how it went. Errors before the run throw; run() reports them. */
export async function execute(ctx: RunContext): Promise<ActionReport> {
  const offline = offlineReason(ctx);
  if (offline) return { report: await validateOffline(ctx, offline) };
  if (!ctx.inputs.apiKey) {
    throw new UsageError("no API key: set the api-key input, e.g. `api-key: ${{ secrets.SITESYNC_API_KEY }}`");
  }
  const { inputs } = ctx;
  const found = inputs.command === "apply" ? await reviewFor(ctx) : undefined;
  const saved: { planFile?: string; plan?: Plan } = {};
  const outcome = await run(
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
  if (outcome.resultsFile) core.setOutput("results-file", outcome.resultsFile);
  if (outcome.results) annotateFailures(outcome.results.items, ctx.event.workspace);
  const report = reportOf(outcome, inputs.command, ctx.configLabel);
  if (inputs.command === "plan") return { report, ...saved };
  const status = reviewStatus(found, outcome.review?.notApplied.length ?? 0);
  setReviewOutputs(status, outcome.review?.notApplied.length ?? 0, outcome.results?.counts.applied ?? 0);
  const merged = found?.pullRequest ? { mergedPullRequest: found.pullRequest.number } : {};
  return { report: withReview(report, outcome, status, found), ...(saved.planFile ? { planFile: saved.planFile } : {}), ...merged };
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
  else if ("missing" in found.source) core.warning(`Nothing reviewed to apply: ${found.source.missing}.`);
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

function settingsOf({ inputs, env }: RunContext): RunSettings {
  return {
    websitesUrl: inputs.websitesUrl,
    projectsUrl: inputs.projectsUrl,
    concurrency: inputs.concurrency,
    ...(inputs.maxDeletes === undefined ? {} : { maxDeletes: Number(inputs.maxDeletes) }),
    detailedExitcode: inputs.command === "plan" && inputs.detailedExitcode,
    resultsFile: (plan) => join(env.RUNNER_TEMP || tmpdir(), `sitesync-results-${plan.hash.slice(0, 8)}.json`),
  };
}

/** The log, outputs and annotations of a run as it goes; every line is redacted (the runner masks only the log). */
function hooksOf(ctx: RunContext, onPlanFile: (file: string, plan: Plan) => void): RunHooks {
  return {
    onLoad: annotateLoad(ctx),
    onPlan(plan) {
      const planFile = savePlan(plan, ctx);
      onPlanFile(planFile, plan);
      setPlanOutputs(plan, planFile);
      core.startGroup(`Plan: ${plan.changes.length} change${plan.changes.length === 1 ? "" : "s"}`);
      core.info(ctx.redactor.redact(render(plan, "text", { color: !("NO_COLOR" in ctx.env) })));
      core.endGroup();
      annotateChanges(plan.changes, ctx.event.workspace);
    },
    onItem: (item, done, total) => core.info(ctx.redactor.redact(`[${done}/${total}] ${itemLine(item)}`)),
    onWait: (wait) => core.info(ctx.redactor.redact(waitLine(wait))),
  };
}

/** Config errors and warnings, as annotations at their line. */
function annotateLoad(ctx: RunContext): (result: LoadResult) => void {
  return (result) => annotateDiagnostics(result.ok ? result.warnings : [...result.errors, ...result.warnings], ctx.event.workspace);
}

/** Why this run must not use the API, if it must not: the key never goes where a fork's config points. */
function offlineReason(ctx: RunContext): string | undefined {
  const pr = ctx.event.pullRequest;
  if (!pr) return undefined;
  if (ctx.inputs.command === "apply") {
    if (pr.fork) throw new UsageError("apply does not run for a pull request from a fork: its config is not trusted with the API key");
    return undefined;
  }
  if (pr.fork) return "this pull request comes from a fork, and sitesync never sends the API key for a fork's config";
  if (!ctx.inputs.apiKey) {
    core.warning(
      "No api-key was given, so the config was only validated. Pass api-key: ${{ secrets.SITESYNC_API_KEY }} (and check that the secret exists) to get a plan.",
    );
    return "no api-key was given to this run";
  }
  return undefined;
}

async function validateOffline(ctx: RunContext, reason: string): Promise<Report> {
  const { env, standIns } = offlineEnv(readSource(ctx.inputs.config) ?? "", ctx.env);
  const outcome = await run({ command: "validate", config: ctx.inputs.config, env, redactor: ctx.redactor }, { onLoad: annotateLoad(ctx) });
  const config = outcome.config;
  if (!config || outcome.error !== undefined) return reportOf(outcome, ctx.inputs.command, ctx.configLabel);
  core.info(`No plan was made: ${reason}. ${ctx.configLabel} is valid.`);
  const projects = config.projects?.length;
  return offlineReport(
    ctx.configLabel,
    { reason, websites: config.websites.length, projects, standIns, warnings: outcome.warnings },
    outcome.exitCode,
  );
}

function readSource(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * The plan as JSON (it holds no secret of ours: DESIGN §3; a live name echoing a key is redacted string by
 * string), named by its hash so two configs never collide.
 */
function savePlan(plan: Plan, ctx: RunContext): string {
  const file = join(ctx.env.RUNNER_TEMP || tmpdir(), `sitesync-plan-${plan.hash.slice(0, 8)}.json`);
  writeFileSync(file, `${ctx.redactor.json(plan)}\n`);
  return file;
}

function setPlanOutputs(plan: Plan, planFile: string): void {
  core.setOutput("has-changes", String(plan.changes.length > 0));
  core.setOutput("creates", plan.summary.create);
  core.setOutput("updates", plan.summary.update);
  core.setOutput("deletes", plan.summary.delete);
  core.setOutput("plan-file", planFile);
}
