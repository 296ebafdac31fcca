/**
 * Runs the committed bundle (dist/index.js) the way the runner does: a Node 24 process with `INPUT_*`
 * variables (upper-cased, dashes kept), the event payload in a file, and files for the job summary and the
 * step outputs. The action.yml defaults are filled in as the runner fills them.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BUNDLE = join(ROOT, "dist", "index.js");

export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  summary: string;
  outputs: Record<string, string>;
  /** The workflow commands (`::error file=...::message`) from stdout. */
  commands: string[];
}

export interface RunOptions {
  /** The checkout: the config lives here and the process runs here. */
  workspace: string;
  inputs: Record<string, string>;
  event: { name: string; payload?: unknown };
  /** Extra environment (e.g. password variables the config reads). */
  env?: Record<string, string>;
  githubApiUrl?: string;
}

/** action.yml's input defaults, as the runner passes them when a workflow leaves an input out. */
function defaultInputs(token: string): Record<string, string> {
  const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as { inputs: Record<string, { default?: string }> };
  const defaults: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) {
    if (input.default !== undefined) defaults[name] = input.default === "${{ github.token }}" ? token : input.default;
  }
  return defaults;
}

export const GITHUB_TOKEN = "ghs_faketoken000000000000000000000000";

export async function runAction(options: RunOptions): Promise<ActionRun> {
  if (!existsSync(BUNDLE)) throw new Error("dist/index.js is missing: run `node scripts/build-action.ts` first");
  const dir = mkdtempSync(join(tmpdir(), "sitesync-action-"));
  const runnerTemp = join(dir, "runner-temp");
  mkdirSync(runnerTemp);
  const files = { summary: join(dir, "summary.md"), output: join(dir, "output.txt"), event: join(dir, "event.json") };
  writeFileSync(files.summary, "");
  writeFileSync(files.output, "");
  writeFileSync(files.event, JSON.stringify(options.event.payload ?? {}));
  const inputs = { ...defaultInputs(GITHUB_TOKEN), ...options.inputs };
  // A clean environment: nothing from the machine's own CI (GITHUB_*, proxies) leaks into the run.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    NO_COLOR: "1",
    RUNNER_TEMP: runnerTemp,
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_REPOSITORY: "acme/sites",
    GITHUB_RUN_ID: "4242",
    GITHUB_SERVER_URL: "https://github.example",
    GITHUB_API_URL: options.githubApiUrl ?? "http://127.0.0.1:9",
    GITHUB_EVENT_NAME: options.event.name,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_OUTPUT: files.output,
    ...options.env,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;

  const { code, stdout, stderr } = await spawnNode([BUNDLE], options.workspace, env);
  return {
    code,
    stdout,
    stderr,
    summary: readFileSync(files.summary, "utf8"),
    outputs: parseOutputs(readFileSync(files.output, "utf8")),
    commands: stdout.split("\n").filter((line) => line.startsWith("::")),
  };
}

function spawnNode(args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // process.execPath: the Node 24 that runs the tests, as action.yml's `using: node24`.
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** `name<<ghadelimiter_…\nvalue\nghadelimiter_…` blocks, as @actions/core writes GITHUB_OUTPUT. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const block = /^([^\n<]+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (const match of text.matchAll(block)) outputs[match[1]!] = match[3]!;
  return outputs;
}

/** A pull_request payload; `fork` puts the head branch in another repository. */
export function pullRequestPayload(number: number, fork = false): unknown {
  return {
    action: "synchronize",
    number,
    pull_request: {
      number,
      head: { sha: "0123456789abcdef0123456789abcdef01234567", repo: { full_name: fork ? "stranger/sites" : "acme/sites" } },
      base: { sha: "fedcba9876543210fedcba9876543210fedcba98", repo: { full_name: "acme/sites" } },
    },
    repository: { full_name: "acme/sites", name: "sites", owner: { login: "acme" } },
  };
}

/**
 * One leg of a fleet's matrix as GitHub runs it: `plan` on pull request 7, or `apply` on the push that merged
 * it as `merge` (the fake GitHub must list the pull request with that merge commit).
 */
export function fleetLeg(
  leg: { workspace: string; githubApiUrl: string; account: string; apiKey: string; merge: string },
  event: "pull_request" | "push",
): Promise<ActionRun> {
  const { workspace, githubApiUrl, account, apiKey, merge } = leg;
  return runAction({
    workspace,
    inputs: { command: event === "push" ? "apply" : "plan", account, "api-key": apiKey },
    event:
      event === "push"
        ? { name: "push", payload: { ref: "refs/heads/main", after: merge } }
        : { name: "pull_request", payload: pullRequestPayload(7) },
    ...(event === "push" ? { env: { GITHUB_SHA: merge } } : {}),
    githubApiUrl,
  });
}
