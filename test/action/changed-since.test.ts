import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { git } from "../helpers/git.ts";
import type { FakeGitHub } from "./fake-github.ts";
import { type ActionFixture, startActionFixture } from "./fixture.ts";

const API_KEY = "AcTi0nK3y11111111111111111111111111111111111111111111111111111Zz";
const PASSWORD = "r0tated-stats-pa55word";
const MERGE = "fa11ed0000000000000000000000000000000018";

let fixture: ActionFixture<"account">;
let sandbox: Sandbox;
let github: FakeGitHub;

beforeEach(async () => {
  fixture = await startActionFixture({
    sandboxes: {
      account: {
        apiKey: API_KEY,
        // 1,000 websites: 10 pages to read in full, against one probe and two lookups.
        seed: 1_000,
        websites: [
          { domain: "acme.org", privacy: 2, password: "the-old-password" },
          { domain: "blog.acme.org", exclude_params: "utm_source" },
        ],
      },
    },
  });
  sandbox = fixture.sandboxes.account;
  github = fixture.github;
});

afterEach(() => fixture.close());

/** The repository on "GitHub": the base commit, and the pull request's head commit on top. */
function origin(): { dir: string; base: string; head: string } {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-origin-"));
  const config = (extra: string) =>
    [
      "version: 1",
      `websites_url: ${sandbox.url}`,
      "websites:",
      "  - domain: acme.org",
      "    privacy: password",
      "    password: ${STATS_PASSWORD}",
      ...(extra ? ["    password_version: 2"] : []),
      "  - domain: blog.acme.org",
      `    exclude_params: [utm_source${extra}]`,
      "",
    ].join("\n");
  git(dir, "init", "-q");
  writeFileSync(join(dir, "sitesync.yaml"), config(""));
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  const base = git(dir, "rev-parse", "HEAD");
  writeFileSync(join(dir, "sitesync.yaml"), config(", fbclid"));
  git(dir, "commit", "-q", "-am", "rotate the stats password, drop fbclid");
  return { dir, base, head: git(dir, "rev-parse", "HEAD") };
}

/** actions/checkout's default: a clone of depth 1, where the base commit is not. */
function shallowCheckout(from: string): string {
  const workspace = join(mkdtempSync(join(tmpdir(), "sitesync-ws-")), "repo");
  git(from, "clone", "-q", "--depth", "1", `file://${from}`, workspace);
  return workspace;
}

const payload = (base: string, head: string) => ({
  action: "synchronize",
  number: 18,
  pull_request: {
    number: 18,
    head: { sha: head, repo: { full_name: "acme/sites" } },
    base: { sha: base, repo: { full_name: "acme/sites" } },
  },
  repository: { full_name: "acme/sites", name: "sites", owner: { login: "acme" } },
});

it("plans the pull request's change from a shallow checkout with k + 1 reads, and the merge applies that reviewed scoped plan", async () => {
  const repo = origin();
  const pr = await fixture.run({
    workspace: shallowCheckout(repo.dir),
    inputs: { "api-key": API_KEY },
    event: { name: "pull_request", payload: payload(repo.base, repo.head) },
    env: { STATS_PASSWORD: PASSWORD },
  });
  expect(pr.code, pr.stdout + pr.stderr).toBe(0);
  expect(sandbox.stats()).toMatchObject({ listRequests: 3, writeRequests: 0 });
  expect(pr.summary).toContain(`Scoped to the change since ${repo.base}: only the 2 websites it touches were read and compared.`);
  expect(pr.summary).toContain("Not evaluated: drift of websites and projects the change does not touch");
  expect(pr.summary).toContain(`(sensitive) _(sent: rotated since ${repo.base})_`);
  expect(pr.summary).toContain(`sent: changed since ${repo.base}`);
  const comment = github.comments.find((c) => c.issue === 18)!.body;
  // The runner masks a secret when told with ::add-mask::, the one line that must carry it.
  const log = (run: { stdout: string }) => run.stdout.replace(/^::add-mask::.*$/gm, "");
  for (const output of [log(pr), pr.stderr, pr.summary, comment]) {
    expect(output).not.toContain(PASSWORD);
    expect(output).not.toContain(API_KEY);
  }

  sandbox.resetLog();
  github.pulls.push({ number: 18, headSha: repo.head, mergeCommitSha: MERGE });
  const merged = await fixture.run({
    workspace: shallowCheckout(repo.dir),
    inputs: { command: "apply", "api-key": API_KEY },
    event: { name: "push", payload: { ref: "refs/heads/main", after: MERGE } },
    env: { STATS_PASSWORD: PASSWORD, GITHUB_SHA: MERGE },
  });
  expect(merged.code, merged.stdout + merged.stderr).toBe(0);
  expect(merged.outputs).toMatchObject({ "review-status": "applied", applied: "2", "not-applied": "0" });
  // The fresh plan follows the reviewed plan's base: the same scope, the same k + 1 reads.
  expect(sandbox.stats()).toMatchObject({ listRequests: 3, writeRequests: 2 });
  expect(sandbox.store.findWebsite("acme.org")?.password).toBe(PASSWORD);
  expect(sandbox.store.findWebsite("blog.acme.org")?.exclude_params).toBe("utm_source\nfbclid");
  for (const output of [log(merged), merged.stderr, merged.summary]) expect(output).not.toContain(PASSWORD);
});

it("reads in full, and says why, when the changed-since input names no revision", async () => {
  const repo = origin();
  const run = await fixture.run({
    workspace: shallowCheckout(repo.dir),
    inputs: { "api-key": API_KEY, "changed-since": "no-such-branch" },
    event: { name: "pull_request", payload: payload(repo.base, repo.head) },
    env: { STATS_PASSWORD: PASSWORD },
  });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.summary).toContain("No change known since no-such-branch");
  expect(sandbox.stats().listRequests).toBe(11);
});

it("takes target, exclude and sync-write-only as inputs, and changed-since: none reads in full", async () => {
  const repo = origin();
  const run = await fixture.run({
    workspace: shallowCheckout(repo.dir),
    inputs: { "api-key": API_KEY, "changed-since": "none", "sync-write-only": "true", target: "*.org\nsite-*", exclude: "blog.*" },
    event: { name: "pull_request", payload: payload(repo.base, repo.head) },
    env: { STATS_PASSWORD: PASSWORD },
  });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.summary).toContain("Partial plan: --target \\*.org --target site-\\* --exclude blog.\\*");
  expect(run.summary).not.toContain("Scoped to the change");
  expect(run.summary).toMatch(/acme\.org \(id \d+\) \| password \| {2}\| \(sensitive\) _\(write-only, not verified\)_/);
  expect(run.summary).not.toContain("blog.acme.org");
  expect(sandbox.stats().listRequests).toBe(11);
});

it("names its own input, not a CLI flag, when sync-write-only is not a boolean", async () => {
  const repo = origin();
  const run = await fixture.run({
    workspace: shallowCheckout(repo.dir),
    inputs: { "api-key": API_KEY, "sync-write-only": "yes please" },
    event: { name: "pull_request", payload: payload(repo.base, repo.head) },
  });
  expect(run.code).toBe(1);
  expect(run.commands).toContainEqual(expect.stringContaining('sync-write-only must be true or false, not "yes please"'));
  expect(run.stdout).not.toContain("--sync-write-only");
  expect(sandbox.stats().listRequests).toBe(0);
});

it("a fleet's leg follows the pull request's change of its own account's included files: the untouched leg reads nothing", async () => {
  const US_KEY = "UsLegKey000000000000000000000000000000000000000000000000000002";
  const us = await startSandbox({ apiKey: US_KEY, rateLimit: 0, seed: 1_000 });
  try {
    const dir = mkdtempSync(join(tmpdir(), "sitesync-fleet-origin-"));
    const files = (exclude: string) => ({
      "sitesync.yaml": [
        "version: 1",
        "accounts:",
        `  eu: { websites_url: ${sandbox.url}, api_key_env: EU_KEY }`,
        `  us: { websites_url: ${us.url}, api_key_env: US_KEY }`,
        'include: ["clients/*.yaml"]',
        "",
      ].join("\n"),
      "clients/acme.yaml": `account: eu\nwebsites:\n  - domain: blog.acme.org\n    exclude_params: [${exclude}]\n`,
      "clients/cora.yaml": "account: us\nwebsites:\n  - domain: cora.com\n",
    });
    const write = (all: Record<string, string>) => {
      for (const [name, text] of Object.entries(all)) {
        mkdirSync(join(dir, name, ".."), { recursive: true });
        writeFileSync(join(dir, name), text);
      }
    };
    git(dir, "init", "-q");
    write(files("utm_source"));
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "base");
    const base = git(dir, "rev-parse", "HEAD");
    write(files("utm_source, fbclid"));
    git(dir, "commit", "-q", "-am", "drop fbclid on blog.acme.org");
    const head = git(dir, "rev-parse", "HEAD");

    const leg = (account: "eu" | "us") =>
      fixture.run({
        workspace: shallowCheckout(dir),
        inputs: { account, "api-key": account === "eu" ? API_KEY : US_KEY },
        event: { name: "pull_request", payload: payload(base, head) },
      });
    const euLeg = await leg("eu");
    expect(euLeg.code, euLeg.stdout + euLeg.stderr).toBe(0);
    expect(euLeg.summary).toContain(`Scoped to the change since ${base}: only the 1 website it touches was read and compared.`);
    expect(euLeg.summary).toContain(`sent: changed since ${base}`);
    expect(sandbox.stats()).toMatchObject({ listRequests: 2, writeRequests: 0 });
    const usLeg = await leg("us");
    expect(usLeg.code, usLeg.stdout + usLeg.stderr).toBe(0);
    expect(usLeg.summary).toContain(`Scoped to the change since ${base}: it touches no website or project here, so none was read.`);
    expect(us.requests).toHaveLength(0);

    // The merge: eu's leg applies its reviewed scoped plan, re-planned over the base the review recorded.
    sandbox.resetLog();
    github.pulls.push({ number: 18, headSha: head, mergeCommitSha: MERGE });
    const merged = await fixture.run({
      workspace: shallowCheckout(dir),
      inputs: { command: "apply", account: "eu", "api-key": API_KEY },
      event: { name: "push", payload: { ref: "refs/heads/main", after: MERGE } },
      env: { GITHUB_SHA: MERGE },
    });
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    expect(merged.outputs).toMatchObject({ "review-status": "applied", applied: "1", "not-applied": "0" });
    expect(sandbox.stats()).toMatchObject({ listRequests: 2, writeRequests: 1 });
    expect(sandbox.store.findWebsite("blog.acme.org")?.exclude_params).toBe("utm_source\nfbclid");
  } finally {
    await us.close();
  }
});
