/**
 * The GitHub Action as a workflow runs it: the committed dist/index.js in its own Node 24 process, against
 * the sandbox (the analytics API) and a fake GitHub REST API, over real HTTP.
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import type { FakeGitHub } from "./fake-github.ts";
import { type ActionFixture, oneAccount, startActionFixture } from "./fixture.ts";
import { type ActionRun, pullRequestPayload, runAction } from "./run-action.ts";

const API_KEY = "AcTi0nK3y00000000000000000000000000000000000000000000000000000Zz";
const PASSWORD = "s3cret-stats-pa55word";
const MARKER = "<!-- sitesync-plan: sitesync.yaml -->";

let fixture: ActionFixture<"account">;
let sandbox: Sandbox;
let github: FakeGitHub;
let workspace: string;

beforeEach(async () => {
  fixture = await startActionFixture({
    sandboxes: {
      account: { apiKey: API_KEY, websites: [{ domain: "blog.example.com", privacy: 1, exclude_bots: 1 }, { domain: "old.example.org" }] },
    },
  });
  ({ github, workspace } = fixture);
  sandbox = fixture.sandboxes.account;
  writeConfig([
    "  - domain: example.com",
    "    privacy: password",
    "    password: ${STATS_PASSWORD}",
    "  - domain: blog.example.com",
    "    privacy: public",
    "  - domain: old.example.org",
    "    state: absent",
  ]);
});

afterEach(() => fixture.close());

function writeConfig(websites: string[], extra: string[] = []): void {
  fixture.write({ "sitesync.yaml": oneAccount(sandbox.url, [...extra, "websites:", ...websites]) });
}

function onPullRequest(inputs: Record<string, string> = {}, fork = false): Promise<ActionRun> {
  return fixture.run({
    inputs: { "api-key": API_KEY, ...inputs },
    event: { name: "pull_request", payload: pullRequestPayload(7, fork) },
    env: { STATS_PASSWORD: PASSWORD },
  });
}

const marked = () => github.comments.filter((c) => c.body.startsWith(MARKER));

describe("plan on a pull request", () => {
  it("creates one comment, then updates that same comment on the next push", async () => {
    // 150 earlier comments: the plan comment lands on the second page, so finding it needs pagination.
    github.seed(7, 150);
    const first = await onPullRequest();
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(marked()).toHaveLength(1);
    const id = marked()[0]!.id;
    expect(marked()[0]!.body).toContain("for commit 0123456");
    expect(marked()[0]!.body).toContain("https://github.example/acme/sites/actions/runs/4242");

    sandbox.store.addWebsite({ domain: "new-in-account.example.net" });
    const second = await onPullRequest();
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(marked()).toHaveLength(1);
    expect(marked()[0]!.id).toBe(id);
    expect(marked()[0]!.body).toContain("Unmanaged");
    expect(github.comments).toHaveLength(151);
    expect(github.requests.filter((r) => r.startsWith("POST") && r.includes("/comments"))).toHaveLength(1);
    expect(github.requests.filter((r) => r.startsWith("PATCH"))).toHaveLength(1);
  });

  it("keeps one plan comment: duplicates of its own from earlier runs are deleted", async () => {
    github.comments.push(
      { id: 1, issue: 7, body: `${MARKER}\nan older plan`, login: "github-actions[bot]" },
      { id: 2, issue: 7, body: `${MARKER}\na duplicate from a concurrent run`, login: "github-actions[bot]" },
    );
    const run = await onPullRequest();
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(marked().map((c) => c.id)).toEqual([1]);
    expect(marked()[0]!.body).toContain("for commit 0123456");
  });

  it("never applies on a fork's pull request, even when asked to: the key stays unsent", async () => {
    const run = await fixture.run({
      inputs: { command: "apply", "api-key": API_KEY, "apply-unreviewed": "true" },
      event: { name: "pull_request", payload: pullRequestPayload(7, true) },
      env: { STATS_PASSWORD: PASSWORD },
    });
    expect(run.code).not.toBe(0);
    expect(run.commands).toContainEqual(expect.stringMatching(/^::error::apply does not run for a pull request from a fork/));
    expect(sandbox.requests).toEqual([]);
  });

  it("neither updates nor deletes a person's comment that starts with the marker", async () => {
    github.comments.push({ id: 1, issue: 7, body: `${MARKER}\nnot the bot`, login: "someone" });
    const run = await onPullRequest();
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(marked()).toHaveLength(2);
    expect(github.comments.find((c) => c.id === 1)?.body).toBe(`${MARKER}\nnot the bot`);
  });

  it("neither updates nor deletes another bot's comment that starts with the marker", async () => {
    github.comments.push({ id: 1, issue: 7, body: `${MARKER}\nanother app`, login: "other-app[bot]" });
    const run = await onPullRequest();
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(marked()).toHaveLength(2);
    expect(github.comments.find((c) => c.id === 1)?.body).toBe(`${MARKER}\nanother app`);
  });

  it("sets the outputs, writes the plan to the job summary and annotates each changed website at its line", async () => {
    const run = await onPullRequest();
    expect(run.code, run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ "has-changes": "true", creates: "1", updates: "1", deletes: "1", "exit-code": "0" });
    const plan = JSON.parse(readFileSync(run.outputs["plan-file"]!, "utf8"));
    expect(plan).toMatchObject({ format: "sitesync-plan", summary: { create: 1, update: 1, delete: 1 } });
    expect(run.outputs["plan-file"]).toMatch(/sitesync-plan-[0-9a-f]{8}\.json$/);

    expect(run.summary).toContain("### sitesync plan for sitesync.yaml");
    expect(run.summary).toContain("example.com");
    expect(run.summary).toMatch(/destroys its collected statistics/);
    // example.com is on line 4 of the file, blog.example.com on line 7, old.example.org (a tombstone) on line 9.
    expect(run.commands).toContainEqual(
      expect.stringMatching(/^::notice title=sitesync create,file=sitesync\.yaml,line=4,col=\d+::create website example\.com$/),
    );
    expect(run.commands).toContainEqual(
      expect.stringMatching(/^::warning title=sitesync delete,file=sitesync\.yaml,line=9,.*::delete website old\.example\.org/),
    );
    expect(run.commands).toContainEqual(
      expect.stringMatching(/^::notice title=sitesync update,.*line=7,.*::update website blog\.example\.com \(id \d+\): privacy$/),
    );
    // A plan never writes.
    expect(sandbox.stats().writeRequests).toBe(0);
  });

  it("never shows the API key or a password, and masks both", async () => {
    const run = await onPullRequest();
    expect(run.code, run.stderr).toBe(0);
    const masks = run.commands.filter((c) => c.startsWith("::add-mask::"));
    expect(masks).toContain(`::add-mask::${API_KEY}`);
    expect(masks).toContain(`::add-mask::${PASSWORD}`);
    const log = run.stdout
      .split("\n")
      .filter((line) => !line.startsWith("::add-mask::"))
      .join("\n");
    const planFile = readFileSync(run.outputs["plan-file"]!, "utf8");
    const everything = [log, run.stderr, run.summary, JSON.stringify(run.outputs), planFile, ...github.comments.map((c) => c.body)];
    for (const text of everything) {
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain(PASSWORD);
    }
  });

  it("cuts a huge plan to fit a comment, with a link to the run", async () => {
    writeConfig(Array.from({ length: 3000 }, (_, i) => `  - domain: site-${String(i).padStart(4, "0")}.example.com`));
    const run = await onPullRequest();
    expect(run.code, run.stderr).toBe(0);
    expect(run.outputs.creates).toBe("3000");
    const body = marked()[0]!.body;
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body).toContain("too long for a comment");
    expect(body).toContain("(https://github.example/acme/sites/actions/runs/4242)");
    // The visible plan is cut, never the reviewed plan after it.
    const [visible, block] = body.split("\n<!-- sitesync-reviewed v1 ");
    expect(visible!.trimEnd()).toMatch(/<\/sub>$/);
    expect(block).toMatch(/ -->\n$/);
    expect(body).toContain("</details>");
    // The job summary (1 MiB) still holds the whole plan.
    expect(run.summary).toContain("site-2999.example.com");
    // Annotations are capped: GitHub shows only the first few anyway.
    expect(run.commands.filter((c) => c.startsWith("::notice")).length).toBeLessThanOrEqual(51);
  });

  it("validates a fork's config offline: no API call, no failure, even when commenting is refused", async () => {
    github.failWrites = 403;
    const run = await fixture.run({
      // The fork gets no secrets: the password variable is empty, as `${{ secrets.X }}` reads then.
      inputs: { "api-key": "" },
      event: { name: "pull_request", payload: pullRequestPayload(7, true) },
      env: { STATS_PASSWORD: "" },
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(sandbox.requests).toHaveLength(0);
    expect(run.summary).toContain("No plan was made: this pull request comes from a fork");
    expect(run.summary).toContain("`STATS_PASSWORD`");
    expect(run.outputs["has-changes"]).toBeUndefined();
    expect(run.commands).toContainEqual(expect.stringMatching(/^::warning::Could not comment on the pull request \(HTTP 403/));
  });

  it("never sends the key for a fork's config, even when one is given", async () => {
    const run = await onPullRequest({}, true);
    expect(run.code, run.stderr).toBe(0);
    expect(sandbox.requests).toHaveLength(0);
    expect(marked()[0]!.body).toContain("comes from a fork");
  });

  it("turns config errors into annotations at their line, fails, and says so in the comment", async () => {
    writeConfig(["  - domain: example.com", "    privacy: secret", "  - domain: example.com"]);
    const run = await onPullRequest();
    expect(run.code).toBe(1);
    expect(run.commands).toContainEqual(
      expect.stringMatching(/^::error title=sitesync config [a-z.-]+,file=sitesync\.yaml,line=5,col=14::websites\[0\]\.privacy: /),
    );
    expect(run.commands).toContainEqual(expect.stringMatching(/^::error title=sitesync config [a-z.-]+,file=sitesync\.yaml,line=6,/));
    expect(run.commands).toContainEqual(expect.stringMatching(/^::error::2 errors in sitesync\.yaml$/));
    expect(sandbox.requests).toHaveLength(0);
    expect(marked()[0]!.body).toContain("The config has 2 errors");
    expect(run.outputs["exit-code"]).toBe("1");
  });

  it("fails the step when the comment cannot be updated, rather than leave an older plan standing", async () => {
    await onPullRequest();
    github.failWrites = 502;
    const run = await onPullRequest();
    expect(run.code).toBe(1);
    expect(run.commands).toContainEqual(expect.stringMatching(/^::error::could not update the plan comment on pull request #7: /));
    expect(run.summary).toContain("### sitesync plan for sitesync.yaml");
  });

  it("refuses a plan over max-deletes (exit 4) and says why, naming the input to set, not a CLI flag", async () => {
    const run = await onPullRequest({ "max-deletes": "0" });
    expect(run.code).toBe(4);
    expect(run.commands).toContainEqual(expect.stringMatching(/^::error::refused: .*set the max-deletes input to \d/));
    expect(marked()[0]!.body).toContain("Refused");
    expect(marked()[0]!.body).toMatch(/set the max-deletes input to \d \(or raise policy/);
    expect(marked()[0]!.body + run.summary).not.toContain("--max-deletes");
  });
});

describe("detailed-exitcode", () => {
  it("exits 2 on drift with its outputs set, and 0 once the account matches", async () => {
    const schedule = () =>
      runAction({
        workspace,
        inputs: { "api-key": API_KEY, "detailed-exitcode": "true" },
        event: { name: "schedule" },
        env: { STATS_PASSWORD: PASSWORD },
      });
    const drift = await schedule();
    expect(drift.code).toBe(2);
    expect(drift.outputs).toMatchObject({ "has-changes": "true", "exit-code": "2" });
    const apply = await byHand();
    expect(apply.code, apply.stdout).toBe(0);
    const clean = await schedule();
    expect(clean.code, clean.stdout).toBe(0);
    expect(clean.outputs).toMatchObject({ "has-changes": "false", creates: "0", "exit-code": "0" });
  });
});

/** apply run by hand (workflow_dispatch) with apply-unreviewed: true: the current plan, no review needed. */
function byHand(inputs: Record<string, string> = {}, env: Record<string, string> = { STATS_PASSWORD: PASSWORD }): Promise<ActionRun> {
  return runAction({
    workspace,
    inputs: { command: "apply", "api-key": API_KEY, "apply-unreviewed": "true", ...inputs },
    event: { name: "workflow_dispatch" },
    env,
  });
}

describe("apply by hand with apply-unreviewed", () => {
  it("applies the plan, writes the results, and the account converges", async () => {
    writeConfig([
      "  - domain: example.com",
      "    privacy: password",
      "    password: ${STATS_PASSWORD}",
      "    favorite: true",
      "  - domain: blog.example.com",
      "    privacy: public",
      "  - domain: old.example.org",
      "    state: absent",
    ]);
    const run = await byHand();
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ "review-status": "unreviewed", reviewed: "false", applied: "3", "not-applied": "0" });
    expect(run.summary).toContain("Applied without a reviewed plan");
    const results = JSON.parse(readFileSync(run.outputs["results-file"]!, "utf8"));
    expect(results.counts).toEqual({ applied: 3, failed: 0, skipped: 0, unchanged: 0 });
    expect(run.summary).toContain("### sitesync apply: complete");
    expect(run.summary).toContain("| 3 | 0 | 0 | 0 |");

    const sites = sandbox.store
      .websitesByDomain()
      .map((w) => ({ domain: w.domain, privacy: w.privacy, password: w.password, favorite: w.favorited_at !== null }));
    expect(sites).toEqual([
      { domain: "blog.example.com", privacy: 0, password: null, favorite: false },
      { domain: "example.com", privacy: 2, password: PASSWORD, favorite: true },
    ]);
    const again = await runAction({
      workspace,
      inputs: { "api-key": API_KEY },
      event: { name: "push" },
      env: { STATS_PASSWORD: PASSWORD },
    });
    expect(again.outputs["has-changes"]).toBe("false");
    for (const text of [run.stdout.replaceAll(`::add-mask::${PASSWORD}`, ""), run.summary, JSON.stringify(results)])
      expect(text).not.toContain(PASSWORD);
  });

  it("fails the step with exit 3 when a change fails, and annotates it at its line", async () => {
    sandbox.store.addOtherUserDomain("taken.example.com");
    writeConfig(["  - domain: taken.example.com", "  - domain: fine.example.com"]);
    const run = await byHand({}, {});
    expect(run.code).toBe(3);
    expect(run.commands).toContainEqual(
      expect.stringMatching(
        /^::error title=sitesync apply failed,file=sitesync\.yaml,line=4,.*::create website taken\.example\.com failed: /,
      ),
    );
    expect(run.summary).toContain("finished with failures");
    expect(sandbox.store.findWebsite("fine.example.com")).toBeDefined();
  });

  it("sends the projects-api-key input to the projects API, never printing it", async () => {
    const PROJECTS_KEY = "PrOjEcTsK3y0000000000000000000000000000000000000000000000000000P";
    const projects = await startSandbox({ projectsApiKey: PROJECTS_KEY, rateLimit: 0, projects: [{ project: "old.example.org" }] });
    try {
      writeConfig(
        ["  - domain: blog.example.com"],
        [`projects_url: ${projects.url}`, "projects:", "  - project: old.example.org", "    state: absent"],
      );
      const without = await byHand();
      expect(without.code).not.toBe(0);
      expect(projects.store.projects().map((p) => p.project)).toEqual(["old.example.org"]);
      const run = await byHand({ "projects-api-key": PROJECTS_KEY });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(projects.store.projects()).toEqual([]);
      expect(run.commands).toContain(`::add-mask::${PROJECTS_KEY}`);
      const shown = (run.stdout + run.stderr + run.summary).replaceAll(`::add-mask::${PROJECTS_KEY}`, "");
      expect(shown).not.toContain(PROJECTS_KEY);
    } finally {
      await projects.close();
    }
  });

  it("stops at once on a wrong key, with a hint and without printing it", async () => {
    const run = await byHand({ "api-key": "WrongKey000000000000000000000000" });
    expect(run.code).toBe(1);
    expect(run.summary).toContain("Check the api-key input");
    expect(run.summary).not.toContain("WrongKey000000000000000000000000");
  });
});

describe("inputs", () => {
  it("reports every invalid input at once, before any request", async () => {
    const run = await runAction({ workspace, inputs: { command: "destroy", concurrency: "0", comment: "yes" }, event: { name: "push" } });
    expect(run.code).toBe(1);
    const error = run.commands.find((c) => c.startsWith("::error::"));
    expect(error).toContain('command must be plan, apply or drift, not "destroy"');
    expect(error).toContain("concurrency must be a whole number of at least 1");
    expect(error).toContain('comment must be true or false, not "yes"');
    expect(sandbox.requests).toHaveLength(0);
  });
});
