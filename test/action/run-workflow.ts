/**
 * Runs an example workflow for one event the way GitHub would: its triggers (branches, paths), its jobs in
 * `needs` order, each job's `if:`, a matrix from its `strategy` (one leg each, a fresh workspace each), its
 * steps with their `if:`, `env:`, `with:` and `continue-on-error`, and its outputs for the jobs that need it.
 * A job's `permissions:` (else the workflow's) are the fake GitHub's grants while it runs; without either, the
 * repository's default. Whatever key the runner does not honour is refused, never ignored in silence.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import type { FakeGitHub } from "./fake-github.ts";
import type { Permission } from "./fake-github-repo.ts";
import type { ActionRun } from "./run-action.ts";
import { type Contexts, condition, type JobStatus, resolve, stringOf } from "./workflow-expressions.ts";
import { runStep, type Step } from "./workflow-steps.ts";

type Permissions = Record<string, string> | "read-all" | "write-all";

interface Job {
  if?: unknown;
  permissions?: Permissions;
  needs?: string | string[];
  strategy?: { matrix?: unknown; "fail-fast"?: unknown };
  env?: Record<string, unknown>;
  outputs?: Record<string, string>;
  steps: Step[];
}

interface Workflow {
  on: unknown;
  env?: Record<string, unknown>;
  permissions?: Permissions;
  jobs: Record<string, Job>;
}

/** What GitHub knows of the event: its payload, the commit and ref it runs at, the files it changed. */
export interface WorkflowEvent {
  name: "pull_request" | "push" | "schedule" | "workflow_dispatch";
  payload: Record<string, unknown>;
  sha: string;
  ref: string;
  /** The typed inputs of a workflow_dispatch (the payload holds them as strings). */
  inputs?: Record<string, string | boolean>;
  /** Files the push or pull request changed, for `paths:` filters. */
  changed?: string[];
}

/** The repository and its settings: where checkout clones from, the fake GitHub, variables and secrets. */
export interface WorkflowWorld {
  origin: string;
  github: FakeGitHub;
  vars: Record<string, string>;
  secrets: Record<string, string>;
}

interface StepRun {
  name: string;
  status: "success" | "failure" | "skipped";
  how: string;
  log: string;
  /** A step of this Action: its run (exit code, outputs, summary, log). */
  action?: ActionRun;
}

export interface JobRun {
  job: string;
  leg?: Record<string, unknown>;
  status: "success" | "failure" | "skipped";
  steps: StepRun[];
  /** The job's checkout (a skipped job has none). */
  workspace?: string;
}

const WORKFLOW_KEYS = new Set(["name", "run-name", "on", "env", "permissions", "concurrency", "jobs"]);
const JOB_KEYS = new Set([
  "name",
  "runs-on",
  "if",
  "needs",
  "strategy",
  "concurrency",
  "permissions",
  "env",
  "outputs",
  "steps",
  "timeout-minutes",
  "environment",
]);
const STEP_KEYS = new Set(["id", "name", "if", "uses", "with", "env", "run", "shell", "continue-on-error", "timeout-minutes"]);

export async function runWorkflow(file: string, event: WorkflowEvent, world: WorkflowWorld): Promise<JobRun[]> {
  const workflow = parse(readFileSync(file, "utf8")) as Workflow;
  for (const key of Object.keys(workflow)) if (!WORKFLOW_KEYS.has(key)) throw new Error(`${file}: the runner does not honour ${key}:`);
  if (!triggered(workflow.on, event)) return [];
  const github = githubContext(event);
  const base: Contexts = { github, inputs: event.inputs ?? {}, vars: world.vars, secrets: world.secrets };
  const env = resolveMap(workflow.env, base);
  const needs: Record<string, { result: string; outputs: Record<string, string> }> = {};
  const defaults = world.github.repo.grants;
  const runs: JobRun[] = [];
  for (const name of jobOrder(workflow.jobs)) {
    const job = workflow.jobs[name]!;
    for (const key of Object.keys(job)) if (!JOB_KEYS.has(key)) throw new Error(`${file}: job ${name}: the runner does not honour ${key}:`);
    const wanted = [job.needs ?? []].flat();
    const contexts = { ...base, needs: Object.fromEntries(wanted.map((n) => [n, needs[n]])) };
    const status = { failed: wanted.some((n) => needs[n]?.result !== "success") };
    if (!condition(job.if, contexts, status)) {
      runs.push({ job: name, status: "skipped", steps: [] });
      needs[name] = { result: "skipped", outputs: {} };
      continue;
    }
    const legs = matrixLegs(resolve(job.strategy?.matrix, contexts));
    const legRuns = [];
    world.github.repo.grants = grantsOf(job.permissions ?? workflow.permissions) ?? new Set(defaults);
    try {
      for (const leg of legs) legRuns.push(await runJob(file, name, job, { ...contexts, matrix: leg ?? {}, env }, event, world, leg));
    } finally {
      world.github.repo.grants = new Set(defaults);
    }
    runs.push(...legRuns.map((r) => r.run));
    // GitHub fails a job whose matrix has no leg.
    const result = legRuns.length > 0 && legRuns.every((r) => r.run.status === "success") ? "success" : "failure";
    if (legRuns.length === 0)
      runs.push({
        job: name,
        status: "failure",
        steps: [{ name: `${file}: job ${name}`, status: "failure", how: "matrix", log: "the matrix has no leg" }],
      });
    needs[name] = { result, outputs: Object.assign({}, ...legRuns.map((r) => r.outputs)) };
  }
  return runs;
}

async function runJob(
  file: string,
  name: string,
  job: Job,
  contexts: Contexts,
  event: WorkflowEvent,
  world: WorkflowWorld,
  leg?: Record<string, unknown>,
): Promise<{ run: JobRun; outputs: Record<string, string> }> {
  const workspace = mkdtempSync(join(tmpdir(), "sitesync-job-"));
  const runnerTemp = mkdtempSync(join(tmpdir(), "sitesync-runner-temp-"));
  const eventPath = join(runnerTemp, "event.json");
  writeFileSync(eventPath, JSON.stringify(event.payload));
  const runnerEnv = runnerVariables(event, workspace, runnerTemp, eventPath);
  const jobEnv = { ...(contexts.env as Record<string, string>), ...resolveMap(job.env, contexts) };
  const steps: Record<string, { outputs: Record<string, string>; outcome: string; conclusion: string }> = {};
  const status: JobStatus = { failed: false };
  const runs: StepRun[] = [];
  for (const [index, step] of job.steps.entries()) {
    const label = `${file}: job ${name}, step ${index + 1} (${step.name ?? step.id ?? step.uses ?? "run"})`;
    for (const key of Object.keys(step)) if (!STEP_KEYS.has(key)) throw new Error(`${label}: the runner does not honour ${key}:`);
    const stepContexts = { ...contexts, steps, env: jobEnv, runner: { temp: runnerTemp, os: "Linux" } };
    if (!condition(step.if, stepContexts, status)) {
      runs.push({ name: label, status: "skipped", how: "if: false", log: "" });
      if (step.id) steps[step.id] = { outputs: {}, outcome: "skipped", conclusion: "skipped" };
      continue;
    }
    const env = { ...jobEnv, ...resolveMap(step.env, stepContexts, status) };
    const scope = { workspace, runnerTemp, sha: event.sha, event: { name: event.name, payload: event.payload }, origin: world.origin };
    const result = await runStep(step, {
      ...scope,
      githubApiUrl: world.github.url,
      env,
      runnerEnv,
      contexts: { ...stepContexts, env },
      status,
    });
    const tolerated = result.outcome === "failure" && stringOf(resolve(step["continue-on-error"], stepContexts)) === "true";
    if (result.outcome === "failure" && !tolerated) status.failed = true;
    if (step.id) steps[step.id] = { outputs: result.outputs, outcome: result.outcome, conclusion: tolerated ? "success" : result.outcome };
    runs.push({ name: label, status: result.outcome, how: result.how, log: result.log, action: result.action });
  }
  const outputs = resolveMap(job.outputs, { ...contexts, steps });
  const run: JobRun = { job: name, ...(leg ? { leg } : {}), status: status.failed ? "failure" : "success", steps: runs, workspace };
  return { run, outputs };
}

function runnerVariables(event: WorkflowEvent, workspace: string, runnerTemp: string, eventPath: string): Record<string, string> {
  return {
    HOME: process.env.HOME ?? workspace,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: workspace,
    GITHUB_EVENT_NAME: event.name,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_SHA: event.sha,
    GITHUB_REF: event.ref,
    GITHUB_REPOSITORY: "acme/sites",
    GITHUB_SERVER_URL: "https://github.example",
    GITHUB_RUN_ID: "4242",
    RUNNER_TEMP: runnerTemp,
  };
}

function githubContext(event: WorkflowEvent): Record<string, unknown> {
  return {
    event_name: event.name,
    event: event.payload,
    sha: event.sha,
    ref: event.ref,
    repository: "acme/sites",
    repository_owner: "acme",
    server_url: "https://github.example",
    run_id: "4242",
  };
}

function resolveMap(map: Record<string, unknown> | undefined, contexts: Contexts, status?: JobStatus): Record<string, string> {
  return Object.fromEntries(Object.entries(map ?? {}).map(([key, value]) => [key, stringOf(resolve(value, contexts, status))]));
}

/** The permissions GITHUB_TOKEN writes with: those set to `write`, or all for `write-all`; undefined when none are set. */
function grantsOf(permissions: Permissions | undefined): Set<Permission> | undefined {
  if (permissions === undefined) return undefined;
  if (permissions === "write-all") return new Set(["issues", "pull-requests", "contents", "checks"]);
  if (permissions === "read-all") return new Set();
  return new Set(Object.entries(permissions).flatMap(([name, level]) => (level === "write" ? [name as Permission] : [])));
}

/** Jobs in an order where each comes after the jobs it needs. */
function jobOrder(jobs: Record<string, Job>): string[] {
  const order: string[] = [];
  const visit = (name: string, path: string[]) => {
    if (order.includes(name)) return;
    if (path.includes(name) || !jobs[name]) throw new Error(`needs: ${[...path, name].join(" → ")} is not a job order`);
    for (const need of [jobs[name].needs ?? []].flat()) visit(need, [...path, name]);
    order.push(name);
  };
  for (const name of Object.keys(jobs)) visit(name, []);
  return order;
}

/** One leg per combination of the matrix's axes, then its `include` entries; no strategy: one leg. */
function matrixLegs(matrix: unknown): (Record<string, unknown> | undefined)[] {
  if (matrix === undefined || matrix === "") return [undefined];
  if (typeof matrix !== "object" || matrix === null) throw new Error(`the runner cannot expand the matrix ${JSON.stringify(matrix)}`);
  const { include = [], exclude, ...axes } = matrix as Record<string, unknown>;
  if (exclude !== undefined) throw new Error("the runner does not honour matrix exclude:");
  let legs: Record<string, unknown>[] = Object.keys(axes).length > 0 ? [{}] : [];
  for (const [axis, values] of Object.entries(axes))
    legs = legs.flatMap((leg) => (values as unknown[]).map((v) => ({ ...leg, [axis]: v })));
  return [...legs, ...(include as Record<string, unknown>[])];
}

/** Whether GitHub starts the workflow for the event: its name under `on:`, and the branches and paths it filters on. */
function triggered(on: unknown, event: WorkflowEvent): boolean {
  const triggers =
    typeof on === "string"
      ? { [on]: null }
      : Array.isArray(on)
        ? Object.fromEntries(on.map((e) => [e, null]))
        : (on as Record<string, unknown>);
  if (!(event.name in triggers)) return false;
  const filter = (triggers[event.name] ?? {}) as { branches?: string[]; paths?: string[] };
  const branch = event.ref.replace(/^refs\/heads\//, "");
  if (event.name === "push" && filter.branches && !filter.branches.some((b) => glob(b).test(branch))) return false;
  if (filter.paths && event.changed && !event.changed.some((f) => filter.paths!.some((p) => glob(p).test(f)))) return false;
  return true;
}

/** GitHub's filter globs: `**` crosses folders, `*` does not. */
function glob(pattern: string): RegExp {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*\*/g, "\u0000")
    .replace(/\*/g, "[^/]*")
    .replace(/\u0000/g, ".*");
  return new RegExp(`^${source}$`);
}
