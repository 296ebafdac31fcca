/**
 * The repositories the example workflows are installed in, with their accounts: one account whose address
 * is a repository variable (sitesync.yml, drift.yml), or a fleet whose addresses are in sitesync.yaml and
 * whose keys are one secret each (fleet.yml). Each has a main branch that the accounts match (BASE), a pull
 * request 7 that edits the config (HEAD), and the commit that merges it (MERGE).
 */
import type { Sandbox } from "../../src/sandbox/index.ts";
import { writeFiles } from "../helpers/files.ts";
import { git } from "../helpers/git.ts";
import { type ActionFixture, euUsRoot, startActionFixture } from "./fixture.ts";
import type { WorkflowWorld } from "./run-workflow.ts";

export interface World extends WorkflowWorld {
  accounts: Record<string, Sandbox>;
  commits: { base: string; head: string; merge: string };
  /** The files pull request 7 changes. */
  changed: string[];
  close(): Promise<void>;
}

const KEY = "W0rkf1owK3y".padEnd(64, "0");
const EU_KEY = "W0rkf1owEuK3y".padEnd(64, "0");
const STATS_PASSWORD = "workflow-Stats-pa55word";

/**
 * The fixture's checkout as the origin repository: its files as `base` on main, `head` on branch pr-7, and main
 * merging it (a merge commit, as GitHub's button makes).
 */
function world<Account extends string>(
  fixture: ActionFixture<Account>,
  head: Record<string, string>,
  settings: Pick<World, "vars" | "secrets" | "changed">,
): World {
  const dir = fixture.workspace;
  const base = fixture.commit("base");
  git(dir, "checkout", "-q", "-b", "pr-7");
  writeFiles(dir, head);
  const headSha = fixture.commit("pull request 7");
  git(dir, "checkout", "-q", "main");
  git(dir, "merge", "-q", "--no-ff", "-m", "Merge pull request #7", "pr-7");
  const merge = git(dir, "rev-parse", "HEAD");
  const { github, sandboxes, close } = fixture;
  return { origin: dir, github, accounts: sandboxes, commits: { base, head: headSha, merge }, ...settings, close };
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
  const fixture = await startActionFixture({
    sandboxes: {
      "": {
        apiKey: KEY,
        websites: [
          { domain: "example.com", privacy: 2, password: "stored-before" },
          { domain: "blog.example.com" },
          { domain: "old.example.org" },
        ],
      },
    },
    files: () => ({ "sitesync.yaml": ONE_BASE }),
  });
  return world(
    fixture,
    { "sitesync.yaml": ONE_HEAD },
    {
      vars: { SITESYNC_WEBSITES_URL: fixture.sandboxes[""].url },
      secrets: { SITESYNC_API_KEY: KEY, EXAMPLE_STATS_PASSWORD: STATS_PASSWORD },
      changed: ["sitesync.yaml"],
    },
  );
}

/** Two accounts (eu with its own key variable, us with the default one), a client file each; pull request 7 edits eu's. */
export async function fleetWorld(): Promise<World> {
  const fixture = await startActionFixture({
    sandboxes: { eu: { apiKey: EU_KEY, websites: [{ domain: "acme.com" }] }, us: { apiKey: KEY, websites: [{ domain: "cora.com" }] } },
    files: (urls) => ({
      "sitesync.yaml": euUsRoot(urls, "SITESYNC_EU_API_KEY"),
      "clients/acme.yaml": "account: eu\nwebsites:\n  - domain: acme.com\n",
      "clients/cora.yaml": "account: us\nwebsites:\n  - domain: cora.com\n",
    }),
  });
  const head = { "clients/acme.yaml": "account: eu\nwebsites:\n  - domain: acme.com\n  - domain: shop.acme.com\n" };
  return world(fixture, head, {
    vars: {},
    secrets: { SITESYNC_EU_API_KEY: EU_KEY, SITESYNC_API_KEY: KEY },
    changed: ["clients/acme.yaml"],
  });
}
