/**
 * `command: drift` as examples/workflows/drift.yml runs it every day (DESIGN §7, "Drift, built in"): the
 * workflow file run as GitHub would (run-workflow.ts), the committed bundle against the sandbox and the fake
 * GitHub (fixture.ts). The issue mode through a drift, a second day of drift and the recovery: one issue, opened,
 * updated, closed. The pull-request mode through an adopt: one pull request, its branch reset and the pull
 * request updated on the second day, closed once there is nothing left to adopt.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox, SandboxOptions } from "../../src/sandbox/index.ts";
import type { FakeGitHub } from "./fake-github.ts";
import { type ActionFixture, euUsRoot, oneAccount, startActionFixture } from "./fixture.ts";
import type { ActionRun } from "./run-action.ts";
import { runWorkflow } from "./run-workflow.ts";

const DRIFT_YML = fileURLToPath(new URL("../../examples/workflows/drift.yml", import.meta.url));
const API_KEY = "DriftK3y000000000000000000000000000000000000000000000000000000Zz";
const PASSWORD = "s3cret-drift-pa55word";
const CONFIG = [
  "# sitesync.yaml: our websites, kept by hand",
  "version: 1",
  "websites:",
  "  - domain: blog.example.com",
  "    privacy: public # the blog is for everyone",
  "    email: false",
  "  - domain: shop.example.com",
  "    privacy: private",
  "  - domain: stats.example.com",
  "    privacy: password",
  "    password: ${EXAMPLE_STATS_PASSWORD}",
  "",
].join("\n");
const ACCOUNT: SandboxOptions = {
  apiKey: API_KEY,
  websites: [
    { domain: "blog.example.com", privacy: 0, email: 0 },
    { domain: "shop.example.com", privacy: 1 },
    { domain: "stats.example.com", privacy: 2, password: PASSWORD },
  ],
};

let fixture: ActionFixture<"account">;
let sandbox: Sandbox;
let github: FakeGitHub;
/** The commit on main that holds CONFIG: what the scheduled run checks out. */
let base: string;

beforeEach(async () => {
  fixture = await startActionFixture({ sandboxes: { account: ACCOUNT }, files: () => ({ "sitesync.yaml": CONFIG }) });
  ({ github } = fixture);
  sandbox = fixture.sandboxes.account;
  base = fixture.commit();
});

afterEach(() => fixture.close());

/** Someone changes a website in the web UI. */
function inTheUi(domain: string, patch: { privacy?: number; email?: number }, account = sandbox): void {
  account.store.updateWebsite(account.store.findWebsite(domain)!.id, patch);
}

/** A scheduled run of the example on main; the sitesync step's run, and the job's checkout it ran in. */
async function scheduled(vars: Record<string, string>, secrets: Record<string, string>): Promise<ActionRun & { checkout: string }> {
  const event = { name: "schedule" as const, sha: base, ref: "refs/heads/main", payload: { schedule: "17 6 * * *" } };
  const world = { origin: fixture.workspace, github, vars: { SITESYNC_WEBSITES_URL: sandbox.url, ...vars }, secrets };
  const [job] = await runWorkflow(DRIFT_YML, event, world);
  const run = job?.steps.find((step) => step.how === "action")?.action;
  expect(run, "the example's sitesync step").toBeDefined();
  return { ...run!, checkout: job!.workspace! };
}

/** The day's scheduled run of the example, with the repository's secrets and variables. */
async function day(vars: Record<string, string> = {}) {
  const run = await scheduled(vars, { SITESYNC_API_KEY: API_KEY, EXAMPLE_STATS_PASSWORD: PASSWORD });
  // The runner's masking commands name the secrets to hide them; no other line may.
  const log = run.stdout.split("\n").filter((line) => !line.startsWith("::add-mask::"));
  for (const text of [...log, run.summary, ...github.repo.issues.map((i) => i.body), ...github.comments.map((c) => c.body)]) {
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(PASSWORD);
  }
  return run;
}

it("the drift example is the trigger, the checkout and one step, under 40 lines", () => {
  expect(readFileSync(DRIFT_YML, "utf8").trimEnd().split("\n").length).toBeLessThan(40);
});

describe("on-drift: issue", () => {
  it("opens one issue on drift, updates it the next day, and closes it with a comment once the account matches", async () => {
    // Someone opened an issue that starts with the marker: never the Action's to update or close.
    github.repo.issues.push({
      number: 1,
      title: "copied",
      body: "<!-- sitesync-drift: sitesync.yaml -->\nby hand",
      state: "open",
      login: "someone",
    });
    inTheUi("blog.example.com", { privacy: 1 });
    const first = await day();
    expect(first.code, first.stdout).toBe(0);
    expect(first.outputs).toMatchObject({ drifted: "true", "has-changes": "true" });
    const ours = () => github.repo.issues.filter((i) => i.login === "github-actions[bot]");
    expect(ours()).toHaveLength(1);
    const issue = ours()[0]!;
    expect(first.outputs["issue-number"]).toBe(String(issue.number));
    expect(issue).toMatchObject({ state: "open", title: "sitesync: the account has drifted from sitesync.yaml" });
    expect(issue.body.startsWith("<!-- sitesync-drift: sitesync.yaml -->\n")).toBe(true);
    expect(issue.body).toContain("blog.example.com");
    expect(issue.body).not.toContain("shop.example.com");

    inTheUi("shop.example.com", { privacy: 0 });
    const second = await day();
    expect(second.code, second.stdout).toBe(0);
    expect(ours()).toHaveLength(1);
    expect(second.outputs["issue-number"]).toBe(String(issue.number));
    expect(ours()[0]!.body).toContain("shop.example.com");
    expect(ours()[0]!.state).toBe("open");

    // A check that could not finish (the key refused) says nothing of drift: the issue stays as it is.
    const before = ours()[0]!.body;
    const failed = await scheduled({}, { SITESYNC_API_KEY: "not-the-key-0000000000", EXAMPLE_STATS_PASSWORD: PASSWORD });
    expect(failed.code).toBe(1);
    expect(failed.outputs.drifted).toBeUndefined();
    expect(ours()[0]).toMatchObject({ state: "open", body: before });

    inTheUi("blog.example.com", { privacy: 0 });
    inTheUi("shop.example.com", { privacy: 1 });
    const third = await day();
    expect(third.code, third.stdout).toBe(0);
    expect(third.outputs).toMatchObject({ drifted: "false", "issue-number": String(issue.number) });
    expect(ours()[0]).toMatchObject({ state: "closed", stateReason: "completed" });
    expect(github.comments.filter((c) => c.issue === issue.number).map((c) => c.body)).toEqual([
      expect.stringMatching(
        /^The account matches `sitesync\.yaml` again \(\[drift check\]\(https:\/\/github\.example\/acme\/sites\/actions\/runs\/4242\)\): closing\.$/,
      ),
    ]);
    expect(github.repo.issues.find((i) => i.number === 1)).toMatchObject({
      state: "open",
      body: "<!-- sitesync-drift: sitesync.yaml -->\nby hand",
    });

    // No drift, no issue open: nothing is written.
    const quiet = await day();
    expect(quiet.outputs).toMatchObject({ drifted: "false", "issue-number": "" });
    expect(ours()).toHaveLength(1);
  });
});

describe("on-drift: pull-request", () => {
  const PR = { SITESYNC_ON_DRIFT: "pull-request" };
  const BRANCH = "sitesync/adopt/sitesync.yaml";

  it("opens one pull request that adopts the drift, resets its branch and updates it the next day, and closes it once nothing is left", async () => {
    inTheUi("blog.example.com", { privacy: 1 });
    const first = await day(PR);
    expect(first.code, first.stdout).toBe(0);
    const pulls = () => github.repo.issues.filter((i) => i.pull);
    expect(pulls()).toHaveLength(1);
    const pull = pulls()[0]!;
    expect(first.outputs).toMatchObject({ drifted: "true", "pull-request-number": String(pull.number) });
    expect(pull).toMatchObject({ state: "open", pull: { head: BRANCH, base: "main" }, login: "github-actions[bot]" });
    expect(pull.body).toContain("websites 1 updated, 0 added, 0 removed");
    expect(pull.body).toContain("-    privacy: public # the blog is for everyone");
    const adopted = github.repo.fileAt(BRANCH, "sitesync.yaml")!;
    // Only the drifted line is rewritten: the comments stay, and so does the ${VAR}.
    expect(adopted).toBe(CONFIG.replace("privacy: public # the blog", "privacy: private # the blog"));
    // Nothing was written to the checkout: the edit is on the branch.
    expect(readFileSync(join(first.checkout, "sitesync.yaml"), "utf8")).toBe(CONFIG);

    inTheUi("shop.example.com", { privacy: 0 });
    const second = await day(PR);
    expect(second.code, second.stdout).toBe(0);
    expect(pulls()).toHaveLength(1);
    expect(second.outputs["pull-request-number"]).toBe(String(pull.number));
    const both = github.repo.fileAt(BRANCH, "sitesync.yaml")!;
    expect(both).toContain("privacy: private # the blog");
    expect(both).toMatch(/shop\.example\.com\n {4}privacy: public\n/);
    // The branch is the base commit and one commit of the day's edit, not the first day's edit plus another.
    const head = github.repo.commits.get(github.repo.refs.get(`heads/${BRANCH}`)!)!;
    expect(head.parents).toEqual([base]);
    expect(pulls()[0]!.body).toContain("websites 2 updated");

    inTheUi("blog.example.com", { privacy: 0 });
    inTheUi("shop.example.com", { privacy: 1 });
    const third = await day(PR);
    expect(third.code, third.stdout).toBe(0);
    expect(third.outputs).toMatchObject({ drifted: "false", "pull-request-number": String(pull.number) });
    expect(pulls()[0]!.state).toBe("closed");
    expect(github.comments.filter((c) => c.issue === pull.number).map((c) => c.body)).toEqual([
      expect.stringContaining("nothing is left to adopt, closing"),
    ]);
  });
});

describe("on-drift: pull-request, refused", () => {
  it("fails the step naming the line when adopt cannot update the file safely, and pushes nothing", async () => {
    fixture.write({ "sitesync.yaml": CONFIG.replace("domain: blog.example.com", "domain: ${BLOG_DOMAIN}") });
    inTheUi("blog.example.com", { privacy: 1 });
    const run = await fixture.run({
      inputs: { command: "drift", "on-drift": "pull-request", "api-key": API_KEY, "websites-url": sandbox.url },
      event: { name: "schedule" },
      env: { BLOG_DOMAIN: "blog.example.com", EXAMPLE_STATS_PASSWORD: PASSWORD, GITHUB_SHA: base, GITHUB_REF: "refs/heads/main" },
    });
    expect(run.code).toBe(1);
    expect(run.commands).toContainEqual(
      expect.stringMatching(/^::error::adopt cannot update 1 line safely, so no pull request was written/),
    );
    expect(run.summary).toContain("sitesync.yaml:4:13");
    expect(github.repo.refs.size).toBe(0);
    expect(github.repo.issues).toEqual([]);
  });
});

describe("a fleet's legs", () => {
  it("each handles its own account: the drifted one opens its own issue, the other none", async () => {
    const fleet = await startActionFixture({
      sandboxes: { eu: ACCOUNT, us: { apiKey: API_KEY, websites: [{ domain: "cora.com" }] } },
      files: (urls) => ({
        "sitesync.yaml": euUsRoot(urls),
        "clients/eu.yaml": CONFIG.replace("version: 1\nwebsites:", "account: eu\nwebsites:"),
        "clients/us.yaml": "account: us\nwebsites:\n  - domain: cora.com\n",
      }),
    });
    try {
      inTheUi("blog.example.com", { privacy: 1 }, fleet.sandboxes.eu);
      const leg = (account: string) =>
        fleet.run({
          inputs: { command: "drift", account, "api-key": API_KEY },
          event: { name: "schedule" },
          env: { EXAMPLE_STATS_PASSWORD: PASSWORD },
        });
      const [eu, other] = await Promise.all([leg("eu"), leg("us")]);
      expect(eu.code, eu.stdout).toBe(0);
      expect(other.code, other.stdout).toBe(0);
      expect([eu.outputs.drifted, other.outputs.drifted]).toEqual(["true", "false"]);
      expect(fleet.github.repo.issues.map((i) => [i.title, i.body.split("\n")[0]])).toEqual([
        ["sitesync: account eu has drifted from sitesync.yaml", "<!-- sitesync-drift: sitesync.yaml#eu -->"],
      ]);
      expect(eu.outputs["issue-number"]).toBe(String(fleet.github.repo.issues[0]!.number));
    } finally {
      await fleet.close();
    }
  });
});

describe("drift without GitHub's part", () => {
  it("is drift, flagged, when apply could not fix it without a password the config does not set; never an error", async () => {
    // The config asks for privacy password without a password; the account has none stored.
    fixture.write({ "sitesync.yaml": oneAccount(sandbox.url, ["websites:", "  - domain: blog.example.com", "    privacy: password"]) });
    const run = await fixture.run({
      inputs: { command: "drift", "on-drift": "none", "api-key": API_KEY },
      event: { name: "schedule" },
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs).toMatchObject({ drifted: "true", "exit-code": "0" });
    expect(run.summary).toContain("blog.example.com");
    expect(run.summary).toContain("needs a password (it becomes password-protected and the account stores no password for it)");
    expect(github.requests.filter((r) => !r.startsWith("GET"))).toEqual([]);
  });
});
