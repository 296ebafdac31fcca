/**
 * What became of a review (DESIGN §3 "Reviewed apply", §7): decided once, here, from what the run did, for
 * `apply --reviewed` and the merge alike. Nothing is called applied when nothing was. Pure.
 */
import type { AccountRun, GivenPlan, ReviewOutcome, ReviewSource, ReviewStatus } from "./types.ts";

/** The review an account's apply follows, if it follows one: the reviewed plan, or why there is none. */
export function reviewSourceOf(given: GivenPlan | undefined, account: string): ReviewSource | undefined {
  if (given === undefined || "saved" in given) return undefined;
  if ("reviewed" in given) return given.reviewed;
  return given.reviewedByAccount.get(account) ?? { missing: given.otherwise };
}

/** The review of `run`, with its status, when it followed one (its intersection may not have been reached). */
export function decideReview(given: GivenPlan | undefined, run: AccountRun): ReviewOutcome | undefined {
  const source = reviewSourceOf(given, run.name);
  if (source === undefined) return undefined;
  const missing = "missing" in source ? { problem: { code: "missing" as const, missing: source.missing } } : {};
  const found = run.review ?? { noLongerNeeded: [], ...missing };
  return { ...found, status: reviewStatus(source, run) };
}

/**
 * - `stale` / `missing`: there was no usable review (made for another head commit / none at all);
 * - `applied`: every change due was applied, or none was due and nothing kept the run from applying;
 * - `partial`: some were applied, and some were not (not reviewed, failed, not started);
 * - `nothing-applied`: changes were due, or the run did not get as far as knowing, and none was applied.
 */
export function reviewStatus(
  source: ReviewSource,
  run: Pick<AccountRun, "plan" | "results" | "skipped" | "error" | "review">,
): ReviewStatus {
  if ("missing" in source) return source.missing.code === "stale" ? "stale" : "missing";
  const applied = run.results?.counts.applied ?? 0;
  const failed = run.results?.counts.failed ?? 0;
  const due = run.plan?.changes.length ?? 0;
  const notReviewed = run.skipped.filter((item) => item.reason === "not-reviewed").length;
  if (applied > 0) return applied < due || notReviewed > 0 || failed > 0 || run.error !== undefined ? "partial" : "applied";
  // Nothing applied: "applied" only when nothing was due and nothing (an error, a rail, the review) stood in the way.
  const stopped = run.plan === undefined || run.error !== undefined || run.plan.refusals.length > 0 || run.review?.problem !== undefined;
  return stopped || due > 0 || notReviewed > 0 || failed > 0 ? "nothing-applied" : "applied";
}

/** How bad each status is, for a step of many accounts that has one output. */
const RANK: readonly ReviewStatus[] = ["applied", "partial", "nothing-applied", "stale", "missing"];

/** The worst of `statuses` (`applied` when there is none: nothing was due). */
export function worstReviewStatus(statuses: readonly ReviewStatus[]): ReviewStatus {
  return statuses.reduce<ReviewStatus>((worst, status) => (RANK.indexOf(status) > RANK.indexOf(worst) ? status : worst), "applied");
}
