/**
 * A fleet's comment always fits (DESIGN §7), as GitHub runs it: six legs of the committed bundle, one per
 * account, each with a plan too long for a sixth of the comment, finish together against the fake GitHub API,
 * which refuses a body over 65,536 characters with 422 as GitHub does. The comment holds every account's section
 * intact (summary first, cut to its share with a note), drops the section of an account no longer in the config,
 * and the merge applies an account's reviewed plan, or refuses one too large to carry (or one its leg never wrote)
 * and says what to do.
 */
import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SandboxOptions } from "../../src/sandbox/index.ts";
import type { FakeGitHub } from "./fake-github.ts";
import { type ActionFixture, PLAN_MARKER as MARKER, startActionFixture } from "./fixture.ts";

const MERGE = "abcdefabcdefabcdefabcdefabcdefabcdefabcd";
/** Websites each account's change creates: a1's reviewed plan fits its share, a6's does not. */
const WEBSITES = { a1: 60, a2: 150, a3: 150, a4: 150, a5: 150, a6: 2000 } as const;
type Account = keyof typeof WEBSITES;
const ACCOUNTS = Object.keys(WEBSITES) as Account[];
const keyOf = (account: Account) => `${account}LegKey`.padEnd(64, "0");
/** Domains that do not compress into one another, as real clients' do not. */
const domainOf = (account: Account, i: number) => `${createHash("sha256").update(`${account}${i}`).digest("hex").slice(0, 16)}.example.com`;

let fixture: ActionFixture<Account>;
let github: FakeGitHub;

beforeEach(async () => {
  const sandboxes = Object.fromEntries(ACCOUNTS.map((a) => [a, { apiKey: keyOf(a) }])) as Record<Account, SandboxOptions>;
  fixture = await startActionFixture({
    sandboxes,
    files: (urls) => {
      const root = ["version: 1", "accounts:", ...ACCOUNTS.map((a) => `  ${a}: { websites_url: ${urls[a]} }`)];
      const files: Record<string, string> = { "sitesync.yaml": [...root, 'include: ["clients/*.yaml"]', ""].join("\n") };
      for (const account of ACCOUNTS) {
        const websites = Array.from({ length: WEBSITES[account] }, (_, i) => `  - domain: ${domainOf(account, i)}`);
        files[`clients/${account}.yaml`] = [`account: ${account}`, "websites:", ...websites, ""].join("\n");
      }
      return files;
    },
  });
  github = fixture.github;
});

afterEach(() => fixture.close());

function leg(account: Account, event: "pull_request" | "push") {
  return fixture.leg(account, keyOf(account), event, MERGE);
}

const between = (body: string, account: string) => {
  const start = body.indexOf(`<!-- sitesync-account: ${account} -->\n`);
  const end = body.indexOf(`\n<!-- /sitesync-account: ${account} -->`);
  return start >= 0 && end > start ? body.slice(start, end) : undefined;
};

describe("six legs whose plans together exceed a comment", () => {
  it("leave one comment within 65,536 characters with every section intact; the merge applies or refuses each clearly", async () => {
    // A section of an account since removed from the config, written by the Action: the stale one must give way.
    github.comments.push({
      id: 1,
      issue: 7,
      login: "github-actions[bot]",
      body: `${MARKER}\n<!-- sitesync-account: a0-gone -->\n## Account a0-gone\n\n${"| x |\n".repeat(6000)}<!-- /sitesync-account: a0-gone -->\n`,
    });
    const legs = await Promise.all(ACCOUNTS.map((account) => leg(account, "pull_request")));
    for (const run of legs) expect(run.code, run.stdout).toBe(0);
    expect(github.refused).toBe(0);
    const marked = github.comments.filter((c) => c.issue === 7 && c.body.startsWith(MARKER));
    expect(marked).toHaveLength(1);
    const body = marked[0]!.body;
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body).not.toContain("a0-gone");
    for (const account of ACCOUNTS) {
      const section = between(body, account);
      expect(section, account).toBeDefined();
      const lines = section!.split("\n");
      // Heading, then the account's summary with its counts, first.
      expect(lines[1]).toBe(`## Account ${account}`);
      expect(section).toMatch(new RegExp(`\\| ${WEBSITES[account]} \\|`));
      expect(section!.match(/<details/g)?.length ?? 0).toBe(section!.match(/<\/details>/g)?.length ?? 0);
      // The whole plan is in the job summary of this leg, uncut.
      expect(legs[ACCOUNTS.indexOf(account)]!.summary).toContain(domainOf(account, WEBSITES[account] - 1));
    }
    // A plan longer than its share says so and where the rest is.
    expect(between(body, "a2")).toMatch(
      /too long for its share of the comment: \d+ of its \d+ lines are shown\. The whole plan is in the job summary of the a2 leg/,
    );
    expect(between(body, "a1")).toContain("<!-- sitesync-reviewed v1 ");
    expect(between(body, "a6")).not.toContain("<!-- sitesync-reviewed v1 ");
    expect(between(body, "a6")).toContain(
      "The reviewed plan is too large to carry: the merge will apply nothing unless run with apply-unreviewed.",
    );

    // a5's leg could not comment (say, a failed step): its merge finds no section of its own and says so.
    marked[0]!.body = body.replace(/<!-- sitesync-account: a5 -->[\s\S]*<!-- \/sitesync-account: a5 -->\n/, "");
    fixture.merged(MERGE);
    const [a1, a5, a6] = await Promise.all([leg("a1", "push"), leg("a5", "push"), leg("a6", "push")]);
    expect(a1.code, a1.stdout).toBe(0);
    expect(a1.outputs["review-status"]).toBe("applied");
    expect(fixture.sandboxes.a1.store.websites()).toHaveLength(WEBSITES.a1);
    expect(a6.code, a6.stdout).toBe(4);
    expect(a6.outputs).toMatchObject({ "review-status": "missing", "review-missing": "unusable" });
    expect(fixture.sandboxes.a6.stats().writeRequests).toBe(0);
    expect(a6.summary).toContain("too large to carry for review in the pull-request comment");
    expect(a6.summary).toContain("apply-unreviewed: true");
    expect(a5.code, a5.stdout).toBe(4);
    expect(a5.summary).toContain("The plan comment has no section for account a5: its leg did not plan this pull request");
    expect(fixture.sandboxes.a5.stats().writeRequests).toBe(0);
  }, 120_000);
});
