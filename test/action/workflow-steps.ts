/**
 * One step of an example workflow, run as the GitHub runner would run it here: this Action through its
 * committed bundle (run-action.ts), `actions/checkout` as a clone of the test's origin repository (or, for
 * sitesync's own repository, this checkout), `run:` through bash, and every other action either done, skipped
 * with the reason it cannot run here, or refused: a step the runner cannot honour fails the test, loudly.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { git } from "../helpers/git.ts";
import { type ActionRun, runAction } from "./run-action.ts";
import { type Contexts, type JobStatus, resolve, stringOf } from "./workflow-expressions.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface Step {
  id?: string;
  name?: string;
  if?: unknown;
  uses?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
  run?: string;
  shell?: string;
  "continue-on-error"?: unknown;
  "timeout-minutes"?: unknown;
}

/** What a step runs against: the job's folder, the event, the world's origin and GitHub, its resolved env. */
export interface StepScope {
  workspace: string;
  runnerTemp: string;
  /** The commit the event is for: what `actions/checkout` checks out. */
  sha: string;
  event: { name: string; payload: unknown };
  origin: string;
  githubApiUrl: string;
  /** The step's resolved `env:` (the workflow's, the job's and its own). */
  env: Record<string, string>;
  /** The runner's own variables (GITHUB_SHA, GITHUB_REF, GITHUB_EVENT_PATH, RUNNER_TEMP, ...). */
  runnerEnv: Record<string, string>;
  contexts: Contexts;
  status: JobStatus;
}

export interface StepResult {
  outcome: "success" | "failure";
  outputs: Record<string, string>;
  /** What the runner did with it: `action`, `checkout`, `run`, or `done`/`skipped` and why. */
  how: string;
  log: string;
  /** This Action's run, for a step that uses it. */
  action?: ActionRun;
}

const THIS_ACTION = /^(\.\/?|[\w.-]+\/sitesync@[\w.-]+)$/;
const KNOWN_ACTIONS: Record<string, { how: "done" | "skipped"; why: string }> = {
  "actions/setup-node": { how: "done", why: "the run: steps run on this process's Node 24" },
  "actions/upload-artifact": { how: "skipped", why: "it keeps files with the run on GitHub, and there is no such run here" },
  "actions/github-script": { how: "skipped", why: "it runs a script on its own runtime against GitHub's API, neither of which is here" },
  "peter-evans/create-pull-request": { how: "skipped", why: "it pushes a branch to GitHub and opens a pull request there" },
};
/** `run:` commands that cannot run here, and why. */
const SKIPPED_RUNS: { command: RegExp; why: string }[] = [
  { command: /^npm ci --prefix \.sitesync\b/, why: "sitesync's checkout is this one, whose dependencies are installed" },
];
const SHELLS: Record<string, string[]> = {
  default: ["bash", "-e"],
  bash: ["bash", "--noprofile", "--norc", "-eo", "pipefail"],
  sh: ["sh", "-e"],
};

export async function runStep(step: Step, scope: StepScope): Promise<StepResult> {
  const inputs = Object.fromEntries(
    Object.entries(step.with ?? {}).map(([k, v]) => [k, stringOf(resolve(v, scope.contexts, scope.status))]),
  );
  if (step.run !== undefined) return runScript(String(resolve(step.run, scope.contexts, scope.status)), step.shell, scope);
  const uses = step.uses ?? "";
  if (THIS_ACTION.test(uses)) return action(inputs, scope);
  const name = uses.replace(/@.*$/, "");
  if (name === "actions/checkout") return checkout(inputs, scope);
  const known = KNOWN_ACTIONS[name];
  if (known) return { outcome: "success", outputs: {}, how: `${known.how}: ${known.why}`, log: "" };
  throw new Error(`the runner cannot honour uses: ${uses}: add it to KNOWN_ACTIONS with what it does here, or run it`);
}

async function action(inputs: Record<string, string>, scope: StepScope): Promise<StepResult> {
  // run-action.ts sets the runner's files and GITHUB_* itself, as the runner does for an action; the commit is the event's.
  const env = { GITHUB_SHA: scope.runnerEnv.GITHUB_SHA!, GITHUB_REF: scope.runnerEnv.GITHUB_REF!, ...scope.env };
  const run = await runAction({ workspace: scope.workspace, inputs, event: scope.event, env, githubApiUrl: scope.githubApiUrl });
  const outcome = run.code === 0 ? "success" : "failure";
  return { outcome, outputs: run.outputs, how: "action", log: `exit ${run.code}\n${run.stdout}${run.stderr}`, action: run };
}

/** The workflow's repository at the event's commit (`fetch-depth` honoured: 1 by default, 0 for all); sitesync's own is this checkout. */
function checkout(inputs: Record<string, string>, scope: StepScope): StepResult {
  const path = join(scope.workspace, inputs.path || ".");
  if (inputs.repository) {
    if (!/\/sitesync$/.test(inputs.repository)) throw new Error(`the runner cannot check out ${inputs.repository}`);
    symlinkSync(ROOT, path);
    return { outcome: "success", outputs: {}, how: "checkout: sitesync's own, this checkout (its CLI is under test)", log: "" };
  }
  const depth = Number(inputs["fetch-depth"] || 1);
  mkdirSync(path, { recursive: true });
  git(path, "init", "-q");
  git(path, "remote", "add", "origin", `file://${scope.origin}`);
  git(
    path,
    "fetch",
    "-q",
    ...(depth > 0 ? [`--depth=${depth}`] : []),
    "origin",
    scope.sha,
    ...(depth > 0 ? [] : ["+refs/heads/*:refs/remotes/origin/*"]),
  );
  git(path, "checkout", "-q", "--detach", scope.sha);
  return { outcome: "success", outputs: {}, how: `checkout: ${scope.sha.slice(0, 12)}, depth ${depth || "all"}`, log: "" };
}

async function runScript(script: string, shell: string | undefined, scope: StepScope): Promise<StepResult> {
  const skipped = SKIPPED_RUNS.find((s) => s.command.test(script.trim()));
  if (skipped) return { outcome: "success", outputs: {}, how: `skipped: ${skipped.why}`, log: "" };
  const command = SHELLS[shell ?? "default"];
  if (!command) throw new Error(`the runner cannot run a step with shell: ${shell}`);
  const files = mkdtempSync(join(tmpdir(), "sitesync-step-"));
  const output = join(files, "output");
  const scriptFile = join(files, "script.sh");
  writeFileSync(output, "");
  writeFileSync(scriptFile, script);
  const path = `${dirname(process.execPath)}:${process.env.PATH ?? "/usr/bin:/bin"}`;
  const env = { ...scope.runnerEnv, ...scope.env, PATH: path, GITHUB_OUTPUT: output };
  const { code, log } = await spawnLogged(command, [scriptFile], scope.workspace, env);
  return {
    outcome: code === 0 ? "success" : "failure",
    outputs: outputsOf(readFileSync(output, "utf8")),
    how: "run",
    log: `exit ${code}\n${log}`,
  };
}

function spawnLogged(command: string[], args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number; log: string }> {
  return new Promise((done, fail) => {
    const child = spawn(command[0]!, [...command.slice(1), ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    child.stdout.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
    child.on("error", fail);
    child.on("close", (code) => done({ code: code ?? -1, log }));
  });
}

/** `name=value` lines and `name<<DELIMITER` blocks, as a step writes `$GITHUB_OUTPUT`. */
function outputsOf(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const block = /^([^=<]+)<<(.+)$/.exec(lines[i]!);
    if (block) {
      const end = lines.indexOf(block[2]!, i + 1);
      outputs[block[1]!] = lines.slice(i + 1, end).join("\n");
      i = end;
      continue;
    }
    const line = /^([^=]+)=(.*)$/.exec(lines[i]!);
    if (line) outputs[line[1]!] = line[2]!;
  }
  return outputs;
}
