/**
 * The one fixture of the tests that run the Action's bundle: a checkout (a temporary folder holding the config),
 * the sandbox of each account the config points at, and the fake GitHub API, started together and closed
 * together. `run` runs the committed bundle in the checkout against that GitHub; `leg` runs one leg of a fleet's
 * matrix on pull request 7 or on the push that merged it; `commit` makes the checkout the origin repository that
 * an example workflow (run-workflow.ts) clones.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.ts";
import { writeFiles } from "../helpers/files.ts";
import { git } from "../helpers/git.ts";
import { type FakeGitHub, startFakeGitHub } from "./fake-github.ts";
import { type ActionRun, fleetLeg, GITHUB_TOKEN, type RunOptions, runAction } from "./run-action.ts";

/** The marker that opens the plan comment of the default config, and the one of the merge's apply comment. */
export const PLAN_MARKER = "<!-- sitesync-plan: sitesync.yaml -->";
export const APPLY_MARKER = "<!-- sitesync-apply: sitesync.yaml -->";
/** The head commit of pull request 7 (pullRequestPayload(7)), which its plan is made for. */
export const HEAD = "0123456789abcdef0123456789abcdef01234567";

export interface ActionFixture<Account extends string> {
  /** The checkout: where the config lives and the bundle runs. */
  workspace: string;
  /** Each account's sandbox, by the name the test gave it. */
  sandboxes: Record<Account, Sandbox>;
  github: FakeGitHub;
  /** Writes files into the checkout (paths relative to it; folders made). */
  write(files: Record<string, string>): void;
  /** Runs the bundle against the fake GitHub, in the checkout unless `workspace` names another. */
  run(options: Omit<RunOptions, "githubApiUrl" | "workspace"> & { workspace?: string }): Promise<ActionRun>;
  /** One leg of a fleet's matrix: plan on pull request 7, or apply on the push that merged it as `merge`. */
  leg(account: Account, apiKey: string, event: "pull_request" | "push", merge: string): Promise<ActionRun>;
  /** GitHub's record of pull request 7, merged as `merge` with `headSha` as its last head commit. */
  merged(merge: string, headSha?: string): void;
  /** Commits the checkout's files on the current branch (main from the first commit); the commit's sha. */
  commit(message?: string): string;
  close(): Promise<void>;
}

export interface ActionFixtureOptions<Account extends string> {
  /** The sandbox of each account (rate limit off unless given). */
  sandboxes?: Record<Account, SandboxOptions>;
  /** The checkout's files, given each sandbox's address. */
  files?: (urls: Record<Account, string>) => Record<string, string>;
}

export async function startActionFixture<Account extends string = never>(
  options: ActionFixtureOptions<Account> = {},
): Promise<ActionFixture<Account>> {
  const sandboxes = {} as Record<Account, Sandbox>;
  for (const [name, sandbox] of Object.entries<SandboxOptions>(options.sandboxes ?? ({} as Record<Account, SandboxOptions>))) {
    sandboxes[name as Account] = await startSandbox({ rateLimit: 0, ...sandbox });
  }
  const github = await startFakeGitHub(GITHUB_TOKEN);
  const workspace = mkdtempSync(join(tmpdir(), "sitesync-ws-"));
  const urls = Object.fromEntries(Object.entries<Sandbox>(sandboxes).map(([name, sandbox]) => [name, sandbox.url]));
  if (options.files) writeFiles(workspace, options.files(urls as Record<Account, string>));
  return {
    workspace,
    sandboxes,
    github,
    write: (files) => writeFiles(workspace, files),
    run: (run) => runAction({ workspace, ...run, githubApiUrl: github.url }),
    leg: (account, apiKey, event, merge) => fleetLeg({ workspace, githubApiUrl: github.url, account, apiKey, merge }, event),
    merged: (merge, headSha = HEAD) => void github.pulls.push({ number: 7, headSha, mergeCommitSha: merge }),
    commit: (message = "sitesync.yaml") => commitAll(workspace, message),
    close: async () => {
      for (const sandbox of Object.values<Sandbox>(sandboxes)) await sandbox.close();
      await github.close();
    },
  };
}

function commitAll(dir: string, message: string): string {
  if (!existsSync(join(dir, ".git"))) {
    git(dir, "init", "-q");
    // actions/checkout fetches the event's commit by its sha.
    git(dir, "config", "uploadpack.allowAnySHA1InWant", "true");
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", message);
  return git(dir, "rev-parse", "HEAD");
}

/** A config of one account at `url`: `version`, `websites_url`, then `lines`. */
export function oneAccount(url: string, lines: string[]): string {
  return ["version: 1", `websites_url: ${url}`, ...lines, ""].join("\n");
}

/**
 * The root of a fleet of accounts eu and us at `urls`, each listing its websites in `clients/*.yaml`; eu's key
 * in `euKeyEnv` when given (else the default variables').
 */
export function euUsRoot(urls: { eu: string; us: string }, euKeyEnv?: string): string {
  return [
    "version: 1",
    "accounts:",
    `  eu: { websites_url: ${urls.eu}${euKeyEnv ? `, api_key_env: ${euKeyEnv}` : ""} }`,
    `  us: { websites_url: ${urls.us} }`,
    'include: ["clients/*.yaml"]',
    "",
  ].join("\n");
}
