/**
 * The work of one Action run: validate offline (a fork's pull request), plan, or plan and apply. It calls the
 * same pipeline as the CLI (DESIGN §1) and returns a Report; publishing it is run.ts's job.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as core from "@actions/core";
import { createClient } from "../api/client.ts";
import type { Client } from "../api/types.ts";
import { apply } from "../apply/apply.ts";
import { itemLine } from "../apply/report.ts";
import { passwordsOf, planFromConfig } from "../pipeline.ts";
import { loadConfig } from "../config/load.ts";
import type { Config } from "../config/types.ts";
import { UsageError } from "../errors.ts";
import { render } from "../plan/render/index.ts";
import type { Plan } from "../plan/types.ts";
import { annotateChanges, annotateDiagnostics, annotateFailures } from "./annotations.ts";
import type { ActionEvent } from "./event.ts";
import type { ActionInputs } from "./inputs.ts";
import { offlineEnv } from "./offline-env.ts";
import type { Redactor } from "./redactor.ts";
import { applyReport, configErrorReport, offlineReport, planReport, type Report } from "./report.ts";

type Env = Readonly<Record<string, string | undefined>>;

export interface RunContext {
  inputs: ActionInputs;
  event: ActionEvent;
  /** The config path relative to the checkout: the comment marker and headings name it. */
  configLabel: string;
  redactor: Redactor;
  env: Env;
}

export interface Outcome {
  report: Report;
  /** Set once a plan was made; the job summary points to it when it has to cut the plan. */
  planFile?: string;
}

/** Runs the command the inputs ask for and says how it went. API and usage errors throw; run() reports them. */
export async function execute(ctx: RunContext): Promise<Outcome> {
  const offline = offlineReason(ctx);
  if (offline) return { report: validateOffline(ctx, offline) };
  if (!ctx.inputs.apiKey) {
    throw new UsageError("no API key: set the api-key input, e.g. `api-key: ${{ secrets.SITESYNC_API_KEY }}`");
  }
  const loaded = load(ctx, ctx.env);
  if ("report" in loaded) return loaded;
  const { config } = loaded;
  const client = clientFor(ctx.inputs, config);
  const plan = await planFromConfig(config, client, ctx.inputs.maxDeletes === undefined ? {} : { maxDeletes: Number(ctx.inputs.maxDeletes) });
  const planFile = savePlan(plan, ctx.env);
  setPlanOutputs(plan, planFile);
  core.startGroup(`Plan: ${plan.changes.length} change${plan.changes.length === 1 ? "" : "s"}`);
  core.info(ctx.redactor.redact(render(plan, "text", { color: !("NO_COLOR" in ctx.env) })));
  core.endGroup();
  annotateChanges(plan.changes, ctx.event.workspace);

  if (ctx.inputs.command === "plan" || plan.changes.length === 0 || plan.refusals.length > 0) {
    return { report: planReport(plan, { detailedExitcode: ctx.inputs.command === "plan" && ctx.inputs.detailedExitcode }), planFile };
  }
  return { report: await applyPlan(ctx, config, client, plan), planFile };
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
    core.warning("No api-key was given, so the config was only validated. Pass api-key: ${{ secrets.SITESYNC_API_KEY }} (and check that the secret exists) to get a plan.");
    return "no api-key was given to this run";
  }
  return undefined;
}

function validateOffline(ctx: RunContext, reason: string): Report {
  const source = readSource(ctx.inputs.config);
  const { env, standIns } = offlineEnv(source ?? "", ctx.env);
  const loaded = load(ctx, env);
  if ("report" in loaded) return loaded.report;
  const { config } = loaded;
  core.info(`No plan was made: ${reason}. ${ctx.configLabel} is valid.`);
  const projects = config.projects?.length;
  return offlineReport(ctx.configLabel, { reason, websites: config.websites.length, projects, standIns, warnings: loaded.warnings });
}

function readSource(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

type Loaded = { config: Config; warnings: ReturnType<typeof loadConfig>["warnings"] } | { report: Report };

/** Loads the config; its passwords are masked before any diagnostic is logged. */
function load(ctx: RunContext, env: Env): Loaded {
  const result = loadConfig(ctx.inputs.config, { env });
  if (result.ok) ctx.redactor.add(result.config.secrets);
  annotateDiagnostics(result.ok ? result.warnings : [...result.errors, ...result.warnings], ctx.event.workspace);
  if (!result.ok) return { report: configErrorReport(ctx.inputs.command, ctx.configLabel, result.errors, result.warnings) };
  return { config: result.config, warnings: result.warnings };
}

/** URLs: inputs (or SITESYNC_*_URL), then the config, as the CLI does (DESIGN §2); keys straight from inputs. */
function clientFor(inputs: ActionInputs, config: Config): Client {
  const websitesUrl = inputs.websitesUrl ?? config.websitesUrl;
  const projectsUrl = inputs.projectsUrl ?? config.projectsUrl;
  return createClient({
    apiKey: inputs.apiKey!,
    ...(inputs.projectsApiKey ? { projectsApiKey: inputs.projectsApiKey } : {}),
    ...(websitesUrl ? { websitesUrl } : {}),
    ...(projectsUrl ? { projectsUrl } : {}),
    concurrency: inputs.concurrency,
  });
}

/** The plan as JSON (it holds no secret: DESIGN §3), named by its hash so two configs never collide. */
function savePlan(plan: Plan, env: Env): string {
  const file = join(env.RUNNER_TEMP || tmpdir(), `sitesync-plan-${plan.hash.slice(0, 8)}.json`);
  writeFileSync(file, render(plan, "json"));
  return file;
}

function setPlanOutputs(plan: Plan, planFile: string): void {
  core.setOutput("has-changes", String(plan.changes.length > 0));
  core.setOutput("creates", plan.summary.create);
  core.setOutput("updates", plan.summary.update);
  core.setOutput("deletes", plan.summary.delete);
  core.setOutput("plan-file", planFile);
}

async function applyPlan(ctx: RunContext, config: Config, client: Client, plan: Plan): Promise<Report> {
  const result = await apply(plan, client, {
    passwordOf: passwordsOf(config),
    onItem: (item, done, total) => core.info(ctx.redactor.redact(`[${done}/${total}] ${itemLine(item)}`)),
  });
  const file = join(ctx.env.RUNNER_TEMP || tmpdir(), `sitesync-results-${plan.hash.slice(0, 8)}.json`);
  const { items, counts, aborted } = result;
  // A server may echo a submitted password in its errors (DESIGN §12): redact each string before it is escaped.
  const redacted = (_key: string, value: unknown) => (typeof value === "string" ? ctx.redactor.redact(value) : value);
  writeFileSync(file, `${JSON.stringify({ counts, items, ...(aborted ? { aborted } : {}) }, redacted, 2)}\n`);
  core.setOutput("results-file", file);
  annotateFailures(items, ctx.event.workspace);
  return applyReport(plan, items, counts, aborted);
}
