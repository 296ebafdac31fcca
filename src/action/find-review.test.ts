import { describe, expect, it } from "vitest";
import { liveWebsite } from "../../test/helpers/live-website.ts";
import { DEFAULT_POLICY } from "../model/policy.ts";
import { plan } from "../plan/plan.ts";
import type { Plan } from "../plan/types.ts";
import { section } from "./comment-sections.ts";
import { markerFor } from "./compose.ts";
import { reviewsIn } from "./find-review.ts";
import { encodeReviewedBlock } from "./reviewed-block.ts";

const HEAD = "0123456789abcdef0123456789abcdef01234567";
const pullRequest = { number: 7, headSha: HEAD };
const reviewed = (domain: string): Plan =>
  plan(
    { policy: DEFAULT_POLICY, websites: [{ domain, state: "present" }] },
    { websites: [liveWebsite(1, "keep.example.com")] },
    { configFile: "sitesync.yaml", configDigest: "d", target: { websites: "https://stats.example" } },
  );

/** A plan's hidden block, as a leg writes it for `config` (the config, or one account's section of it). */
function block(p: Plan, config: string, headSha = HEAD): string {
  const encoded = encodeReviewedBlock(p, { headSha, config });
  if ("problem" in encoded) throw new Error(encoded.problem);
  return `### sitesync plan${encoded.block}`;
}

const comment = (...sections: string[]) => `${markerFor("sitesync.yaml")}\n${sections.join("\n\n")}\n`;

describe("reviewsIn: the reviewed plan of each account's section of the plan comment (DESIGN §7)", () => {
  it("reads a comment of one account, as written before sections existed, as the account named ''", () => {
    const plan = reviewed("a.example.com");
    expect(reviewsIn(comment(block(plan, "sitesync.yaml")), "sitesync.yaml", pullRequest)).toEqual(new Map([["", plan]]));
  });

  it("reads each account's section as that account's review", () => {
    const eu = reviewed("eu.example.com");
    const us = reviewed("us.example.com");
    const body = comment(section("eu", block(eu, "sitesync.yaml#eu")), section("us", block(us, "sitesync.yaml#us")));
    expect(reviewsIn(body, "sitesync.yaml", pullRequest)).toEqual(
      new Map([
        ["eu", eu],
        ["us", us],
      ]),
    );
  });

  it("never takes a review copied into another account's section: it is for another config", () => {
    const body = comment(section("us", block(reviewed("eu.example.com"), "sitesync.yaml#eu")));
    expect(reviewsIn(body, "sitesync.yaml", pullRequest).get("us")).toEqual({
      missing: { code: "unusable", pullRequest: 7, problem: expect.any(String) },
    });
  });

  it("says a review made for an earlier head commit is stale, and a section with no review is unusable", () => {
    const earlier = "fedcba9876543210fedcba9876543210fedcba98";
    const body = comment(
      section("eu", block(reviewed("eu.example.com"), "sitesync.yaml#eu", earlier)),
      section("us", "### sitesync plan\n\nNo changes."),
    );
    const reviews = reviewsIn(body, "sitesync.yaml", pullRequest);
    expect(reviews.get("eu")).toEqual({ missing: { code: "stale", pullRequest: 7, problem: expect.stringContaining("fedcba987654") } });
    expect(reviews.get("us")).toEqual({ missing: { code: "unusable", pullRequest: 7, problem: expect.any(String) } });
  });
});
