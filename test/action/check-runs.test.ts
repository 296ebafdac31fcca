/**
 * A check run per account on pull requests and pushes (DESIGN §7, "Check runs"), as the Checks API takes it:
 * the committed bundle against the sandbox and the fake GitHub, which refuses what GitHub refuses (over 50
 * annotations in a request, an output over 65,535 characters, a write without `checks: write`).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type GitHubFleet, startGitHubFleet } from "../fleet/_github-fleet.ts";
import type { FakeGitHub } from "./fake-github.ts";
import { type ActionFixture, HEAD, oneAccount, startActionFixture } from "./fixture.ts";
import { pullRequestPayload } from "./run-action.ts";

const API_KEY = "Ch3ckK3y00000000000000000000000000000000000000000000000000000Zz";

describe("one account", () => {
  let fixture: ActionFixture<"account">;
  let github: FakeGitHub;

  beforeEach(async () => {
    fixture = await startActionFixture({
      sandboxes: { account: { apiKey: API_KEY, websites: [{ domain: "blog.example.com", privacy: 1 }, { domain: "old.example.org" }] } },
    });
    ({ github } = fixture);
    github.repo.grants.add("checks");
    write([
      "  - domain: example.com",
      "  - domain: blog.example.com",
      "    privacy: public",
      "  - domain: old.example.org",
      "    state: absent",
    ]);
  });
  afterEach(() => fixture.close());

  function write(websites: string[]): void {
    fixture.write({ "sitesync.yaml": oneAccount(fixture.sandboxes.account.url, ["websites:", ...websites]) });
  }

  const onPullRequest = (inputs: Record<string, string> = {}) =>
    fixture.run({ inputs: { "api-key": API_KEY, ...inputs }, event: { name: "pull_request", payload: pullRequestPayload(7) } });

  it("leaves one check run on the head commit: the plan as its output, neutral, each change annotated at its line and not on the step", async () => {
    const run = await onPullRequest();
    expect(run.code, run.stdout).toBe(0);
    expect(github.repo.checkRuns).toHaveLength(1);
    const [check] = github.repo.checkRuns;
    expect(check).toMatchObject({ name: "sitesync plan", headSha: HEAD, conclusion: "neutral", writes: 1 });
    expect(check!.output.title).toBe("3 changes: 1 to create, 1 to update, 1 to delete");
    expect(check!.output.summary).toContain("| 1 | 1 | 1 | 0 | 0 |");
    expect(check!.output.text).toContain("example.com");
    const at = check!.annotations.map((a) => [a.path, a.start_line, a.annotation_level, a.message]);
    expect(at).toEqual([
      ["sitesync.yaml", 7, "warning", expect.stringMatching(/^delete website old\.example\.org/)],
      ["sitesync.yaml", 4, "notice", "create website example.com"],
      ["sitesync.yaml", 5, "notice", expect.stringMatching(/^update website blog\.example\.com \(id \d+\): privacy$/)],
    ]);
    expect(run.commands.filter((c) => /^::(notice|warning) title=sitesync/.test(c))).toEqual([]);
    // The plan comment is written as before.
    expect(github.comments.filter((c) => c.issue === 7)).toHaveLength(1);
  });

  it("concludes success when the account matches, and failure when a safety rail refuses the plan", async () => {
    write(["  - domain: blog.example.com", "    privacy: private", "  - domain: old.example.org"]);
    expect((await onPullRequest()).code).toBe(0);
    write(["  - domain: blog.example.com", "    privacy: private", "  - domain: old.example.org", "    state: absent"]);
    expect((await onPullRequest({ "max-deletes": "0" })).code).toBe(4);
    expect(github.repo.checkRuns.map((c) => [c.conclusion, c.output.title])).toEqual([
      ["success", "No changes"],
      ["failure", "Refused: max-deletes"],
    ]);
  });

  it("annotates a large plan 50 per request, the first with the check run and the rest as updates, within its bound", async () => {
    write(Array.from({ length: 1_100 }, (_, i) => `  - domain: site-${String(i).padStart(4, "0")}.example.com`));
    const run = await onPullRequest();
    expect(run.code, run.stdout).toBe(0);
    const [check] = github.repo.checkRuns;
    // The fake answers 422, as GitHub does, to over 50 annotations in a request or an output over 65,535 characters.
    expect(check).toMatchObject({ conclusion: "neutral", writes: 20 });
    expect(check!.annotations).toHaveLength(1_000);
    expect(check!.annotations.at(-1)).toMatchObject({ path: "sitesync.yaml", start_line: 4 + 999 });
    expect(check!.output.summary).toContain("The first 1000 of 1100 changes are annotated");
    expect(check!.output.text).toContain("too long for a check run");
  });

  it("without checks: write, warns and annotates the step as before", async () => {
    github.repo.grants.delete("checks");
    const run = await onPullRequest();
    expect(run.code, run.stdout).toBe(0);
    expect(github.repo.checkRuns).toEqual([]);
    expect(run.commands).toContainEqual(
      expect.stringMatching(/^::warning::Could not create the check runs \(HTTP 403: the workflow may lack `permissions: checks: write`\)/),
    );
    expect(run.commands).toContainEqual(expect.stringMatching(/^::notice title=sitesync create,file=sitesync\.yaml,line=4,/));
  });
});

describe("a fleet", () => {
  let fleet: GitHubFleet;
  beforeEach(async () => {
    // acme.com belongs to another user of eu's server: eu's create fails on the merge (API-NOTES §2.4).
    fleet = await startGitHubFleet({ eu: { otherUsersDomains: ["acme.com"] } });
    fleet.github.repo.grants.add("checks");
  });
  afterEach(() => fleet.close());

  it("leaves one check run per account on the pull request and on the merge, each annotated in its own file", async () => {
    const plans = await Promise.all([fleet.leg("eu", "pull_request"), fleet.leg("us", "pull_request")]);
    for (const plan of plans) expect(plan.code, plan.stdout).toBe(0);
    const runs = () => [...fleet.github.repo.checkRuns].sort((a, b) => a.name.localeCompare(b.name));
    expect(runs().map((c) => [c.name, c.headSha, c.conclusion, c.annotations.map((a) => `${a.path}:${a.start_line}`)])).toEqual([
      ["sitesync plan (eu)", HEAD, "neutral", ["clients/acme.yaml:3"]],
      ["sitesync plan (us)", HEAD, "neutral", ["clients/cora.yaml:3"]],
    ]);

    fleet.merged();
    expect((await fleet.leg("eu", "push")).code).toBe(3);
    expect((await fleet.leg("us", "push")).code).toBe(0);
    const applies = runs().filter((c) => c.name.startsWith("sitesync apply"));
    expect(applies.map((c) => [c.name, c.headSha, c.conclusion])).toEqual([
      ["sitesync apply (eu)", "abcdefabcdefabcdefabcdefabcdefabcdefabcd", "failure"],
      ["sitesync apply (us)", "abcdefabcdefabcdefabcdefabcdefabcdefabcd", "success"],
    ]);
    expect(applies[0]!.annotations).toContainEqual(
      expect.objectContaining({
        path: "clients/acme.yaml",
        start_line: 3,
        annotation_level: "failure",
        message: expect.stringContaining("failed"),
      }),
    );
  });
});
