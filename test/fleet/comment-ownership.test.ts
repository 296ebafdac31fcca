/**
 * A fleet's plan comment is the Action's own (DESIGN §7): its legs merge sections only from comments written
 * by the Action's identity. Anyone can post a comment that starts with the marker and holds sections: it is
 * never merged into the Action's comment, updated or deleted, and on the merge a plan comment written by
 * someone else is never trusted as the account's reviewed plan. The committed bundle against the fake GitHub.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { type GitHubFleet, PLAN_MARKER, startGitHubFleet } from "./_github-fleet.ts";

let fleet: GitHubFleet;
beforeEach(async () => {
  fleet = await startGitHubFleet();
});
afterEach(() => fleet.close());

const section = (account: string, text: string) => `<!-- sitesync-account: ${account} -->\n${text}\n<!-- /sitesync-account: ${account} -->`;
/** Someone's comment in the shape of the Action's: the marker, a section of eu and one of an account "zz". */
const FORGED = `${PLAN_MARKER}\n${section("eu", "## Account eu\n\nforged plan of eu")}\n\n${section("zz", "## Account zz\n\nforged zz")}\n`;

it("a leg neither merges, updates nor deletes someone else's comment that starts with the marker", async () => {
  fleet.github.comments.push({ id: 1, issue: 7, body: FORGED, login: "mallory" });
  const plan = await fleet.leg("eu", "pull_request");
  expect(plan.code, plan.stdout).toBe(0);
  expect(fleet.github.comments.filter((c) => c.login === "mallory")).toEqual([{ id: 1, issue: 7, body: FORGED, login: "mallory" }]);
  const ours = fleet.github.comments.filter((c) => c.login === "github-actions[bot]" && c.body.startsWith(PLAN_MARKER));
  expect(ours).toHaveLength(1);
  expect(ours[0]!.body).toContain("acme.com");
  expect(ours[0]!.body).not.toContain("forged");
  expect(ours[0]!.body).not.toContain("sitesync-account: zz");
});

it("the merge never takes a plan comment written by someone else as an account's reviewed plan", async () => {
  const [eu, us] = await Promise.all([fleet.leg("eu", "pull_request"), fleet.leg("us", "pull_request")]);
  expect(eu.code, eu.stdout).toBe(0);
  expect(us.code, us.stdout).toBe(0);
  // The same comment, every section and reviewed plan intact, but written by someone else.
  const comment = fleet.github.comments.find((c) => c.body.startsWith(PLAN_MARKER))!;
  comment.login = "mallory";
  fleet.merged();
  const apply = await fleet.leg("eu", "push");
  expect(apply.code, apply.stdout).toBe(4);
  expect(apply.outputs).toMatchObject({ "review-status": "missing", "review-missing": "no-comment" });
  expect(fleet.eu.stats().writeRequests).toBe(0);
});
