/**
 * The repositories the example workflows are installed in, with their accounts: one account whose address
 * is a repository variable (sitesync.yml, drift.yml), or a fleet whose addresses are in sitesync.yaml and
 * whose keys are one secret each (fleet.yml). Each has a main branch that the accounts match (BASE), a pull
 * request 7 that edits the config (HEAD), and the commit that merges it (MERGE).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { writeFiles } from "../helpers/files.ts";
import { git } from "../helpers/git.ts";
import { type FakeGitHub, startFakeGitHub } from "./fake-github.ts";
import { GITHUB_TOKEN } from "./run-action.ts";
import type { WorkflowWorld } from "./run-workflow.ts";

export interface World extends WorkflowWorld {
  github: FakeGitHub;
  accounts: Record<string, Sandbox>;
  commits: { base: string; head: string; merge: string };
  /** The files pull request 7 changes. */
  changed: string[];
  close(): Promise<void>;
}

const KEY = "W0rkf1owK3y".padEnd(64, "0");
const EU_KEY = "W0rkf1owEuK3y".padEnd(64, "0");
const STATS_PASSWORD = "workflow-Stats-pa55word";

/** An origin repository: `base` on main, `head` on branch pr-7, and main merging it (a merge commit, as GitHub's button makes). */
function origin(base: Record<string, string>, head: Record<string, string>): { dir: string; commits: World["commits"] } {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-origin-"));
  git(dir, "init", "-q");
  // actions/checkout fetches the event's commit by its sha.
  git(dir, "config", "uploadpack.allowAnySHA1InWant", "true");
  writeFiles(dir, base);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  const baseSha = git(dir, "rev-parse", "HEAD");
  git(dir, "checkout", "-q", "-b", "pr-7");
  writeFiles(dir, head);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "pull request 7");
  const headSha = git(dir, "rev-parse", "HEAD");
  git(dir, "checkout", "-q", "main");
  git(dir, "merge", "-q", "--no-ff", "-m", "Merge pull request #7", "pr-7");
  return { dir, commits: { base: baseSha, head: headSha, merge: git(dir, "rev-parse", "HEAD") } };
}

async function world(
  accounts: Record<string, Sandbox>,
  repo: ReturnType<typeof origin>,
  settings: Pick<World, "vars" | "secrets" | "changed">,
): Promise<World> {
  const github = await startFakeGitHub(GITHUB_TOKEN);
  return {
    origin: repo.dir,
    githubApiUrl: github.url,
    github,
    accounts,
    commits: repo.commits,
    ...settings,
    close: async () => {
      for (const sandbox of Object.values(accounts)) await sandbox.close();
      await github.close();
    },
  };
}

const ONE_BASE = `version: 1
websites:
  - domain: example.com
    privacy: password
    password: \${EXAMPLE_STATS_PASSWORD}
  - domain: blog.example.com
    privacy: public
  - domain: old.example.org
`;
/** Pull request 7: one website edited, one added, one tombstoned. */
const ONE_HEAD = ONE_BASE.replace("privacy: public", "privacy: private").replace(
  "  - domain: old.example.org\n",
  "  - domain: shop.example.com\n  - domain: old.example.org\n    state: absent\n",
);

/** One account, matching main; its address is the repository variable the workflows read. */
export async function oneAccountWorld(): Promise<World> {
  const account = await startSandbox({
    apiKey: KEY,
    rateLimit: 0,
    websites: [
      { domain: "example.com", privacy: 2, password: "stored-before" },
      { domain: "blog.example.com" },
      { domain: "old.example.org" },
    ],
  });
  const repo = origin({ "sitesync.yaml": ONE_BASE }, { "sitesync.yaml": ONE_HEAD });
  return world({ "": account }, repo, {
    vars: { SITESYNC_WEBSITES_URL: account.url },
    secrets: { SITESYNC_API_KEY: KEY, EXAMPLE_STATS_PASSWORD: STATS_PASSWORD },
    changed: ["sitesync.yaml"],
  });
}

/** Two accounts (eu with its own key variable, us with the default one), a client file each; pull request 7 edits eu's. */
export async function fleetWorld(): Promise<World> {
  const eu = await startSandbox({ apiKey: EU_KEY, rateLimit: 0, websites: [{ domain: "acme.com" }] });
  const us = await startSandbox({ apiKey: KEY, rateLimit: 0, websites: [{ domain: "cora.com" }] });
  const root = [
    "version: 1",
    "accounts:",
    `  eu: { websites_url: ${eu.url}, api_key_env: SITESYNC_EU_API_KEY }`,
    `  us: { websites_url: ${us.url} }`,
    'include: ["clients/*.yaml"]',
    "",
  ].join("\n");
  const base = {
    "sitesync.yaml": root,
    "clients/acme.yaml": "account: eu\nwebsites:\n  - domain: acme.com\n",
    "clients/cora.yaml": "account: us\nwebsites:\n  - domain: cora.com\n",
  };
  const repo = origin(base, { "clients/acme.yaml": "account: eu\nwebsites:\n  - domain: acme.com\n  - domain: shop.acme.com\n" });
  return world({ eu, us }, repo, {
    vars: {},
    secrets: { SITESYNC_EU_API_KEY: EU_KEY, SITESYNC_API_KEY: KEY },
    changed: ["clients/acme.yaml"],
  });
}
