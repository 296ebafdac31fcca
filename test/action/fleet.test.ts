/**
 * A fleet's matrix on GitHub Actions (issue 19 item 5), as GitHub runs it: two legs of the committed bundle,
 * one per account (the account input), finishing at the same moment against the fake GitHub API. They leave
 * one plan comment with both sections intact, each carrying its account's reviewed plan; on the merge each
 * leg applies its own account's reviewed plan.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { type FakeGitHub, startFakeGitHub } from "./fake-github.ts";
import { fleetLeg, GITHUB_TOKEN } from "./run-action.ts";

const KEYS = {
  eu: "EuLegKey000000000000000000000000000000000000000000000000000001",
  us: "UsLegKey000000000000000000000000000000000000000000000000000002",
};
const MARKER = "<!-- sitesync-plan: sitesync.yaml -->";
const HEAD = "0123456789abcdef0123456789abcdef01234567";
const MERGE = "abcdefabcdefabcdefabcdefabcdefabcdefabcd";

let eu: Sandbox;
let us: Sandbox;
let github: FakeGitHub;
let workspace: string;

beforeEach(async () => {
  eu = await startSandbox({ apiKey: KEYS.eu, rateLimit: 0 });
  us = await startSandbox({ apiKey: KEYS.us, rateLimit: 0 });
  github = await startFakeGitHub(GITHUB_TOKEN);
  workspace = mkdtempSync(join(tmpdir(), "sitesync-fleet-ws-"));
  mkdirSync(join(workspace, "clients"));
  const root = [
    "version: 1",
    "accounts:",
    `  eu: { websites_url: ${eu.url} }`,
    `  us: { websites_url: ${us.url} }`,
    'include: ["clients/*.yaml"]',
    "",
  ];
  writeFileSync(join(workspace, "sitesync.yaml"), root.join("\n"));
  writeFileSync(join(workspace, "clients/acme.yaml"), "account: eu\nwebsites:\n  - domain: acme.com\n");
  writeFileSync(join(workspace, "clients/cora.yaml"), "account: us\nwebsites:\n  - domain: cora.com\n  - domain: blog.cora.com\n");
});

afterEach(async () => {
  await eu.close();
  await us.close();
  await github.close();
});

function leg(account: "eu" | "us", event: "pull_request" | "push") {
  return fleetLeg({ workspace, githubApiUrl: github.url, account, apiKey: KEYS[account], merge: MERGE }, event);
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

    github.pulls.push({ number: 7, headSha: HEAD, mergeCommitSha: MERGE });
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
