/**
 * A fleet's matrix on GitHub Actions (DESIGN §7), as GitHub runs it: two legs of the committed bundle,
 * one per account (the account input), finishing at the same moment against the fake GitHub API. They leave
 * one plan comment with both sections intact, each carrying its account's reviewed plan; on the merge each
 * leg applies its own account's reviewed plan.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.ts";
import type { FakeGitHub } from "./fake-github.ts";
import { type ActionFixture, euUsRoot, PLAN_MARKER as MARKER, startActionFixture } from "./fixture.ts";

const KEYS = {
  eu: "EuLegKey000000000000000000000000000000000000000000000000000001",
  us: "UsLegKey000000000000000000000000000000000000000000000000000002",
};
const MERGE = "abcdefabcdefabcdefabcdefabcdefabcdefabcd";

let fixture: ActionFixture<"eu" | "us">;
let eu: Sandbox;
let us: Sandbox;
let github: FakeGitHub;

beforeEach(async () => {
  fixture = await startActionFixture({
    sandboxes: { eu: { apiKey: KEYS.eu }, us: { apiKey: KEYS.us } },
    files: (urls) => ({
      "sitesync.yaml": euUsRoot(urls),
      "clients/acme.yaml": "account: eu\nwebsites:\n  - domain: acme.com\n",
      "clients/cora.yaml": "account: us\nwebsites:\n  - domain: cora.com\n  - domain: blog.cora.com\n",
    }),
  });
  ({ eu, us } = fixture.sandboxes);
  github = fixture.github;
});

afterEach(() => fixture.close());

function leg(account: "eu" | "us", event: "pull_request" | "push") {
  return fixture.leg(account, KEYS[account], event, MERGE);
}

describe("two legs of a fleet's matrix", () => {
  it("finishing together leave one comment with both sections intact; the merge applies each account's reviewed plan", async () => {
    const [euPlan, usPlan] = await Promise.all([leg("eu", "pull_request"), leg("us", "pull_request")]);
    expect(euPlan.code, euPlan.stdout).toBe(0);
    expect(usPlan.code, usPlan.stdout).toBe(0);
    const marked = github.comments.filter((c) => c.issue === 7 && c.body.startsWith(MARKER));
    expect(marked).toHaveLength(1);
    const body = marked[0]!.body;
    expect(body).toContain("<!-- sitesync-account: eu -->");
    expect(body).toContain("<!-- sitesync-account: us -->");
    expect(body.indexOf("acme.com")).toBeGreaterThan(body.indexOf("<!-- sitesync-account: eu -->"));
    expect(body.indexOf("acme.com")).toBeLessThan(body.indexOf("<!-- /sitesync-account: eu -->"));
    expect(body.indexOf("blog.cora.com")).toBeGreaterThan(body.indexOf("<!-- sitesync-account: us -->"));
    expect(body.match(/<!-- sitesync-reviewed v1 /g)).toHaveLength(2);
    for (const key of Object.values(KEYS)) expect(body).not.toContain(key);
    expect(eu.stats().writeRequests + us.stats().writeRequests).toBe(0);

    fixture.merged(MERGE);
    const [euApply, usApply] = await Promise.all([leg("eu", "push"), leg("us", "push")]);
    expect(euApply.code, euApply.stdout).toBe(0);
    expect(usApply.code, usApply.stdout).toBe(0);
    expect(euApply.outputs["review-status"]).toBe("applied");
    expect(eu.store.websites().map((w) => w.domain)).toEqual(["acme.com"]);
    expect(
      us.store
        .websites()
        .map((w) => w.domain)
        .sort(),
    ).toEqual(["blog.cora.com", "cora.com"]);
  });
});
