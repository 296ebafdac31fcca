/**
 * A fleet of two accounts (eu, us) on two sandboxes, a workspace whose root lists them with a client file
 * each, and the fake GitHub API: the Action's fixture (test/action/fixture.ts) as the fleet's Action tests
 * start it, whose legs run the committed bundle.
 */
import type { Sandbox, SandboxOptions } from "../../src/sandbox/index.ts";
import type { FakeGitHub } from "../action/fake-github.ts";
import { euUsRoot, startActionFixture } from "../action/fixture.ts";
import type { ActionRun } from "../action/run-action.ts";

export { PLAN_MARKER } from "../action/fixture.ts";

/** The commit merging pull request 7. */
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
  const fixture = await startActionFixture({
    sandboxes: { eu: { apiKey: KEYS.eu, ...options.eu }, us: { apiKey: KEYS.us, ...options.us } },
    files: (urls) => ({
      "sitesync.yaml": euUsRoot(urls),
      "clients/acme.yaml": "account: eu\nwebsites:\n  - domain: acme.com\n",
      "clients/cora.yaml": "account: us\nwebsites:\n  - domain: cora.com\n",
    }),
  });
  return {
    ...fixture.sandboxes,
    github: fixture.github,
    leg: (account, event) => fixture.leg(account, KEYS[account], event, MERGE),
    merged: () => fixture.merged(MERGE),
    close: fixture.close,
  };
}
