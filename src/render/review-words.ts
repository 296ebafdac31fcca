/** Why a review approves nothing at all, in words (the CLI's warning, the Action's callout and log). Pure. */
import type { MissingReview, ReviewOutcome } from "../run/types.ts";

export function reviewProblemWords(problem: NonNullable<ReviewOutcome["problem"]>): string {
  switch (problem.code) {
    case "missing":
      return missingReviewWords(problem.missing);
    case "reviewed-refused":
      return `The reviewed plan was refused by a safety rail, so it approves nothing: ${problem.refusals.join(" ")}`;
    case "other-account":
      return `The reviewed plan was made against ${problem.planned}, not ${problem.actual ?? "(no URL)"}, so it approves nothing here.`;
  }
}

/** Why there is no usable reviewed plan. */
export function missingReviewWords(missing: MissingReview): string {
  switch (missing.code) {
    case "not-a-push":
      return `apply ran on a ${missing.event || "unknown"} event, not on a push that merged a reviewed pull request`;
    case "direct-push":
      return `commit ${missing.sha.slice(0, 12)} was pushed directly, not merged from a pull request, so nobody reviewed its plan`;
    case "no-comment":
      return `pull request #${missing.pullRequest} has no plan comment for ${missing.config} written by ${missing.identity}`;
    case "unusable":
      return `pull request #${missing.pullRequest}: ${missing.problem.replace(/\.$/, "")}`;
  }
}
