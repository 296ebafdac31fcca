/**
 * A fleet of two accounts (eu, us) on two sandboxes, a workspace whose root lists them with a client file
 * each, and the fake GitHub API: the fixture of the fleet's Action tests, whose legs run the committed bundle.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.ts";
import { type FakeGitHub, startFakeGitHub } from "../action/fake-github.ts";
import { type ActionRun, fleetLeg, GITHUB_TOKEN } from "../action/run-action.ts";
import { writeFiles } from "../helpers/files.ts";

export const PLAN_MARKER = "<!-- sitesync-plan: sitesync.yaml -->";
/** The head commit of pull request 7 (run-action.ts's payload) and the commit merging it. */
const HEAD = "0123456789abcdef0123456789abcdef01234567";
const MERGE = "abcdefabcdefabcdefabcdefabcdefabcdefabcd";
const KEYS = { eu: "EuLegKey".padEnd(64, "0"), us: "UsLegKey".padEnd(64, "0") };

export interface GitHubFleet {
  eu: Sandbox;
  us: Sandbox;
  github: FakeGitHub;
  /** One leg: plan on pull request 7, or apply on the push that merged it. */
  leg(account: "eu" | "us", event: "pull_request" | "push"): Promise<ActionRun>;
  /** GitHub's record of pull request 7 as merged. */
  merged(): void;
  close(): Promise<void>;
}

/** eu's client file lists acme.com, us's lists cora.com; `options` seed each account. */
export async function startGitHubFleet(options: { eu?: SandboxOptions; us?: SandboxOptions } = {}): Promise<GitHubFleet> {
  const eu = await startSandbox({ apiKey: KEYS.eu, rateLimit: 0, ...options.eu });
  const us = await startSandbox({ apiKey: KEYS.us, rateLimit: 0, ...options.us });
  const github = await startFakeGitHub(GITHUB_TOKEN);
  const workspace = mkdtempSync(join(tmpdir(), "sitesync-fleet-gh-"));
  const root = ["version: 1", "accounts:", `  eu: { websites_url: ${eu.url} }`, `  us: { websites_url: ${us.url} }`];
  writeFiles(workspace, {
    "sitesync.yaml": [...root, 'include: ["clients/*.yaml"]', ""].join("\n"),
    "clients/acme.yaml": "account: eu\nwebsites:\n  - domain: acme.com\n",
    "clients/cora.yaml": "account: us\nwebsites:\n  - domain: cora.com\n",
  });
  return {
    eu,
    us,
    github,
    leg: (account, event) => fleetLeg({ workspace, githubApiUrl: github.url, account, apiKey: KEYS[account], merge: MERGE }, event),
    merged: () => void github.pulls.push({ number: 7, headSha: HEAD, mergeCommitSha: MERGE }),
    close: async () => {
      await eu.close();
      await us.close();
      await github.close();
    },
  };
}
