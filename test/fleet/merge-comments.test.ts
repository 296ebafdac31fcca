/**
 * On the merge, each leg of a fleet reports its own account's apply on the pull request (DESIGN §7): a leg
 * that finishes later never hides what an earlier one reported, so a failure in one account stays in view
 * beside the other accounts' outcomes. The committed bundle against the fake GitHub.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { type GitHubFleet, startGitHubFleet } from "./_github-fleet.ts";

let fleet: GitHubFleet;
beforeEach(async () => {
  // acme.com belongs to another user of eu's server: eu's create fails on the merge (API-NOTES §2.4).
  fleet = await startGitHubFleet({ eu: { otherUsersDomains: ["acme.com"] } });
});
afterEach(() => fleet.close());

/** What the Action has said on the pull request, every comment of its own. */
const said = () => fleet.github.comments.filter((c) => c.issue === 7 && c.login === "github-actions[bot]").map((c) => c.body);

it("one leg's failed apply stays on the pull request after the next leg reports its own", async () => {
  const plans = await Promise.all([fleet.leg("eu", "pull_request"), fleet.leg("us", "pull_request")]);
  for (const plan of plans) expect(plan.code, plan.stdout).toBe(0);
  fleet.merged();
  const eu = await fleet.leg("eu", "push");
  expect(eu.code, eu.stdout).toBe(3);
  const failure = "The domain has already been taken.";
  expect(said().join("\n")).toContain(failure);
  const before = said();

  const us = await fleet.leg("us", "push");
  expect(us.code, us.stdout).toBe(0);
  expect(fleet.us.store.websites().map((w) => w.domain)).toEqual(["cora.com"]);
  // us reported its apply, and eu's failure is still there to see.
  expect(said()).not.toEqual(before);
  expect(said().join("\n")).toContain(failure);
});
