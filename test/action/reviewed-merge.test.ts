/**
 * The merge applies what was reviewed, and nothing else (DESIGN §7): the committed bundle as a workflow runs
 * it, planning on a pull request (the comment carries the reviewed plan) and applying on the push that
 * merged it, against the sandbox and the fake GitHub API, over real HTTP.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.ts";
import { domainsOf } from "../helpers/domains.ts";
import type { FakeGitHub } from "./fake-github.ts";
import { type ActionFixture, APPLY_MARKER, HEAD, oneAccount, PLAN_MARKER, startActionFixture } from "./fixture.ts";
import { type ActionRun, pullRequestPayload } from "./run-action.ts";

const API_KEY = "AcTi0nK3y00000000000000000000000000000000000000000000000000000Zz";
const PASSWORD = "s3cret-stats-pa55word";
const MERGE = "fa11ed0000000000000000000000000000000007";

let fixture: ActionFixture<"account">;
let sandbox: Sandbox;
let github: FakeGitHub;

const WEBSITES = [
  "  - domain: example.com",
  "    privacy: password",
  "    password: ${STATS_PASSWORD}",
  "  - domain: blog.example.com",
  "    privacy: public",
  "  - domain: old.example.org",
  "    state: absent",
];

beforeEach(async () => {
  const websites = [
    { domain: "blog.example.com", privacy: 1, exclude_bots: 1 },
    { domain: "old.example.org" },
    { domain: "bystander.example.net" },
  ];
  fixture = await startActionFixture({ sandboxes: { account: { apiKey: API_KEY, websites } } });
  sandbox = fixture.sandboxes.account;
  github = fixture.github;
  writeConfig(WEBSITES);
});

afterEach(() => fixture.close());

function writeConfig(websites: string[]): void {
  fixture.write({ "sitesync.yaml": oneAccount(sandbox.url, ["websites:", ...websites]) });
}

function planOnPullRequest(): Promise<ActionRun> {
  return fixture.run({
    inputs: { "api-key": API_KEY },
    event: { name: "pull_request", payload: pullRequestPayload(7) },
    env: { STATS_PASSWORD: PASSWORD },
  });
}

/** GitHub's record of pull request 7, merged as MERGE with `headSha` as its final head commit. */
function merged(headSha = HEAD): void {
  fixture.merged(MERGE, headSha);
}

function applyOnPush(inputs: Record<string, string> = {}): Promise<ActionRun> {
  return fixture.run({
    inputs: { command: "apply", "api-key": API_KEY, ...inputs },
    event: { name: "push", payload: { ref: "refs/heads/main", after: MERGE } },
    env: { STATS_PASSWORD: PASSWORD, GITHUB_SHA: MERGE },
  });
}

const planComment = () => github.comments.find((c) => c.issue === 7 && c.body.startsWith(PLAN_MARKER))!;
const mergeComment = () => github.comments.find((c) => c.issue === 7 && c.body.startsWith(APPLY_MARKER));
const domains = () => domainsOf(sandbox);
const blogPrivacy = () => sandbox.store.findWebsite("blog.example.com")!.privacy;

async function reviewed(): Promise<void> {
  const plan = await planOnPullRequest();
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  sandbox.resetLog();
}

/** `status`: the review's (run/review-status.ts); `missing`: why there was none, as the review-missing output says. */
function expectNothingApplied(run: ActionRun, status: string, missing?: string): void {
  expect(run.code, run.stdout + run.stderr).toBe(4);
  expect(sandbox.stats().writeRequests).toBe(0);
  expect(run.outputs).toMatchObject({ "review-status": status, reviewed: "false", applied: "0", "not-applied": "3", "exit-code": "4" });
  expect(run.outputs["review-missing"]).toBe(missing);
  expect(run.summary).toContain("Nothing reviewed was applied");
  expect(run.summary).toContain("`apply-unreviewed: true`");
  expect(run.commands).toContainEqual(expect.stringMatching(/^::error::nothing reviewed was applied/));
}

describe("plan on a pull request", () => {
  it("carries the reviewed plan hidden in the comment, made for the head commit, holding no secret", async () => {
    await reviewed();
    const body = planComment().body;
    expect(body).toMatch(/\n<!-- sitesync-reviewed v1 sha256=[0-9a-f]{64} [A-Za-z0-9+/=]+ -->\n$/);
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body).not.toContain(PASSWORD);
  });
});

describe("apply on the push that merged a pull request", () => {
  it("applies the reviewed changes, says so in the outputs, and comments on the merged pull request", async () => {
    await reviewed();
    merged();
    const run = await applyOnPush();
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ "review-status": "applied", reviewed: "true", applied: "3", "not-applied": "0" });
    expect(domains()).toEqual(["blog.example.com", "bystander.example.net", "example.com"]);
    expect(blogPrivacy()).toBe(0);
    expect(run.summary).toContain("Applied what pull request #7 reviewed");
    expect(mergeComment()?.body).toContain("Applied what pull request #7 reviewed");
    expect(mergeComment()?.body).not.toContain(PASSWORD);
  });

  it("never says Applied when the merge's apply failed before writing anything: nothing-applied, on the pull request too", async () => {
    await reviewed();
    merged();
    const run = await applyOnPush({ "api-key": "Wr0ngK3y000000000000000000000000000000000000000000000000000000Zz" });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(sandbox.stats().writeRequests).toBe(0);
    expect(run.outputs).toMatchObject({ "review-status": "nothing-applied", reviewed: "false", applied: "0", "exit-code": "1" });
    for (const text of [run.summary, mergeComment()!.body]) {
      expect(text).not.toContain("Applied what");
      expect(text).toContain("Nothing reviewed was applied: the run failed before applying it");
    }
  });

  it("does not apply a change made in the account between plan and merge, and reports it in the summary and on the pull request", async () => {
    await reviewed();
    sandbox.store.updateWebsite(sandbox.store.findWebsite("blog.example.com")!.id, { exclude_bots: 0 });
    merged();
    const run = await applyOnPush();
    expect(run.code, run.stdout + run.stderr).toBe(4);
    expect(run.outputs).toMatchObject({ "review-status": "partial", reviewed: "true", applied: "2", "not-applied": "1" });
    expect(blogPrivacy()).toBe(1);
    expect(domains()).toEqual(["blog.example.com", "bystander.example.net", "example.com"]);
    for (const text of [run.summary, mergeComment()!.body]) {
      expect(text).toContain("#### Not applied: not in the reviewed plan");
      expect(text).toMatch(
        /update blog\.example\.com \(id \d+\).*not applied: blog\.example\.com \(id \d+\) changed in the account since the review/,
      );
    }
    expect(run.commands).toContainEqual("::error::1 change not applied: not in the reviewed plan of pull request #7");
  });

  it("does not apply what another pull request merged in between added to the config", async () => {
    await reviewed();
    writeConfig([...WEBSITES, "  - domain: other-pr.example.net"]);
    merged();
    const run = await applyOnPush();
    expect(run.code, run.stdout + run.stderr).toBe(4);
    expect(run.outputs).toMatchObject({ "review-status": "partial", applied: "3", "not-applied": "1" });
    expect(domains()).toEqual(["blog.example.com", "bystander.example.net", "example.com"]);
    expect(mergeComment()!.body).toMatch(/create other-pr\.example\.net: not applied: not in the reviewed plan/);
  });

  it("applies nothing on a direct push", async () => {
    const run = await applyOnPush();
    expectNothingApplied(run, "missing", "direct-push");
    expect(run.summary).toContain("was pushed directly, not merged from a pull request");
    expect(mergeComment()).toBeUndefined();
  });

  it("applies nothing when the last plan was for an older head commit", async () => {
    await reviewed();
    merged("b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0");
    const run = await applyOnPush();
    expectNothingApplied(run, "stale");
    expect(run.summary).toContain("the last push was never planned and reviewed");
    expect(mergeComment()!.body).toContain("Nothing reviewed was applied");
  });

  it("treats a comment whose hidden block was edited as no reviewed plan", async () => {
    await reviewed();
    const comment = planComment();
    // Someone with the right to edit comments changes one character of the stored plan.
    comment.body = comment.body.replace(
      /(sitesync-reviewed v1 sha256=[0-9a-f]{64} [A-Za-z0-9+/]{40})([A-Za-z0-9+/])/,
      (_, head: string, c: string) => head + (c === "A" ? "B" : "A"),
    );
    merged();
    const run = await applyOnPush();
    expectNothingApplied(run, "missing", "unusable");
    expect(run.summary).toMatch(/damaged|integrity check/);
  });

  it("ignores a comment with the marker and a plan written by someone else", async () => {
    await reviewed();
    planComment().login = "mallory";
    merged();
    const run = await applyOnPush();
    expectNothingApplied(run, "missing", "no-comment");
    expect(run.summary).toContain("has no plan comment for sitesync.yaml written by github-actions\\[bot\\]");
  });

  it("ignores a plan comment written by another bot, however much it looks like ours", async () => {
    await reviewed();
    planComment().login = "renovate[bot]";
    merged();
    const run = await applyOnPush();
    expectNothingApplied(run, "missing", "no-comment");
  });

  it("never takes a pull request closed without merging as the one the push merged", async () => {
    await reviewed();
    // The commit is PR 7's test merge, but PR 7 was closed unmerged: the commit came another way.
    github.pulls.push({ number: 7, headSha: HEAD, mergeCommitSha: MERGE, closedUnmerged: true });
    const run = await applyOnPush();
    expectNothingApplied(run, "missing", "direct-push");
    expect(mergeComment()).toBeUndefined();
  });

  it("never takes a pull request still open as the merged one, even one holding the pushed commit", async () => {
    await reviewed();
    github.pulls.push({ number: 7, headSha: HEAD, commits: [MERGE] });
    const run = await applyOnPush();
    expectNothingApplied(run, "missing", "direct-push");
  });

  it("needs bot-login when the token cannot say who it is, and trusts only that login", async () => {
    await reviewed();
    merged();
    github.viewer = undefined;
    const unknown = await applyOnPush();
    expect(unknown.code).toBe(1);
    expect(unknown.commands).toContainEqual(
      expect.stringMatching(/^::error::cannot tell which account github-token belongs to.*set the bot-login input/),
    );
    expect(sandbox.stats().writeRequests).toBe(0);
    const named = await applyOnPush({ "bot-login": "github-actions[bot]" });
    expect(named.code, named.stdout).toBe(0);
    expect(named.outputs["review-status"]).toBe("applied");
  });
});

describe("apply-unreviewed", () => {
  it("applies the current plan when run by hand (workflow_dispatch), and is refused on a push", async () => {
    const push = await applyOnPush({ "apply-unreviewed": "true" });
    expect(push.code).toBe(1);
    expect(push.commands).toContainEqual(
      expect.stringMatching(/^::error::apply-unreviewed: true is honoured only when a person runs the workflow by hand/),
    );
    expect(sandbox.stats().writeRequests).toBe(0);

    const run = await fixture.run({
      inputs: { command: "apply", "api-key": API_KEY, "apply-unreviewed": "true" },
      event: { name: "workflow_dispatch", payload: { inputs: { "apply-unreviewed": "true" } } },
      env: { STATS_PASSWORD: PASSWORD },
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ "review-status": "unreviewed", reviewed: "false", applied: "3" });
    expect(domains()).toEqual(["blog.example.com", "bystander.example.net", "example.com"]);
  });
});
