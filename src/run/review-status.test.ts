import { describe, expect, it } from "vitest";
import { liveWebsite } from "../../test/helpers/live-website.ts";
import type { ItemResult } from "../apply/types.ts";
import { ApiError } from "../errors.ts";
import { DEFAULT_POLICY } from "../model/policy.ts";
import { plan } from "../plan/plan.ts";
import { decideReview, reviewSourceOf, reviewStatus, worstReviewStatus } from "./review-status.ts";
import type { AccountRun, ApplyReport } from "./types.ts";

const reviewed = plan(
  { policy: DEFAULT_POLICY, websites: ["a", "b"].map((n) => ({ domain: `${n}.example.com`, state: "present" as const })) },
  { websites: [liveWebsite(1, "keep.example.com")] },
  { configFile: "sitesync.yaml", configDigest: "d", target: { websites: "https://a.example" } },
);
const [createA, createB] = reviewed.changes as [ItemResult["change"], ItemResult["change"]];
const applied = (change: ItemResult["change"]): ItemResult => ({ change, status: "applied", reason: "applied", id: 9 });
const failed = (change: ItemResult["change"]): ItemResult => ({ change, status: "failed", reason: "failed", error: { message: "500" } });
const notReviewed = (change: ItemResult["change"]): ItemResult => ({
  change,
  status: "skipped",
  reason: "not-reviewed",
  detail: { why: "not-in-review" },
});

function results(items: ItemResult[]): ApplyReport {
  const count = (status: ItemResult["status"]) => items.filter((i) => i.status === status).length;
  return { items, counts: { applied: count("applied"), failed: count("failed"), skipped: count("skipped"), unchanged: 0 } };
}

type Ran = Pick<AccountRun, "plan" | "results" | "skipped" | "error" | "review">;
const ran = (run: Partial<Ran>): Ran => ({ skipped: [], ...run });

describe("reviewStatus: what became of a review, decided from what the run did", () => {
  it("is applied only when every change due was applied, or none was due and nothing stood in the way", () => {
    expect(reviewStatus(reviewed, ran({ plan: reviewed, results: results([applied(createA), applied(createB)]) }))).toBe("applied");
    expect(reviewStatus(reviewed, ran({ plan: { ...reviewed, changes: [] } }))).toBe("applied");
  });

  it("is nothing-applied when the run failed before writing, however much was reviewed", () => {
    const error = new ApiError({
      kind: "http",
      method: "GET",
      url: "https://a.example/api/v1/websites",
      status: 500,
      message: "Server Error",
    });
    expect(reviewStatus(reviewed, ran({ error }))).toBe("nothing-applied");
    expect(reviewStatus(reviewed, ran({ plan: reviewed, error }))).toBe("nothing-applied");
  });

  it("is nothing-applied when every change failed, when a rail refused, or when nothing due was reviewed", () => {
    expect(reviewStatus(reviewed, ran({ plan: reviewed, results: results([failed(createA), failed(createB)]) }))).toBe("nothing-applied");
    const refused = {
      ...reviewed,
      changes: [],
      refusals: [{ code: "max-deletes" as const, websites: 9, projects: 0, limit: 5, partial: false }],
    };
    expect(reviewStatus(reviewed, ran({ plan: refused }))).toBe("nothing-applied");
    expect(reviewStatus(reviewed, ran({ plan: { ...reviewed, changes: [] }, skipped: [notReviewed(createA)] }))).toBe("nothing-applied");
  });

  it("is partial when some were applied and some were not: not reviewed, or failed", () => {
    const some = ran({ plan: { ...reviewed, changes: [createA] }, skipped: [notReviewed(createB)] });
    expect(reviewStatus(reviewed, { ...some, results: results([applied(createA), notReviewed(createB)]) })).toBe("partial");
    expect(reviewStatus(reviewed, ran({ plan: reviewed, results: results([applied(createA), failed(createB)]) }))).toBe("partial");
  });

  it("is stale or missing when there was no usable review, whatever the run did", () => {
    expect(reviewStatus({ missing: { code: "stale", pullRequest: 7, problem: "older head" } }, ran({ plan: reviewed }))).toBe("stale");
    expect(reviewStatus({ missing: { code: "direct-push", sha: "abc" } }, ran({ plan: reviewed }))).toBe("missing");
  });
});

describe("the review an account follows", () => {
  const otherwise = { code: "no-section", pullRequest: 7 } as const;
  const given = { reviewedByAccount: new Map([["eu", reviewed]]), otherwise };

  it("is its own section's on the merge, and why there is none for an account without one", () => {
    expect(reviewSourceOf(given, "eu")).toBe(reviewed);
    expect(reviewSourceOf(given, "us")).toEqual({ missing: otherwise });
    expect(reviewSourceOf({ saved: reviewed }, "")).toBeUndefined();
    expect(reviewSourceOf(undefined, "")).toBeUndefined();
  });

  it("is decided even when the run ended before it was intersected", () => {
    const run = { name: "us", skipped: [] } as unknown as AccountRun;
    expect(decideReview(given, run)).toEqual({ status: "missing", noLongerNeeded: [], problem: { code: "missing", missing: otherwise } });
  });

  it("of a step of many accounts is the worst of theirs", () => {
    expect(worstReviewStatus(["applied", "partial", "applied"])).toBe("partial");
    expect(worstReviewStatus(["applied", "missing", "nothing-applied"])).toBe("missing");
    expect(worstReviewStatus([])).toBe("applied");
  });
});
