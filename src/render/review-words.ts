/** A review in words: why it approves nothing, and what became of it (the CLI's notes, the Action's callouts and log). Pure. */
import { plural } from "../model/plural.ts";
import type { AccountRun, MissingReview, ReviewOutcome } from "../run/types.ts";
import { refusalWords, type Surface } from "./refusal-words.ts";

export function reviewProblemWords(problem: NonNullable<ReviewOutcome["problem"]>, account = "", surface: Surface = "cli"): string {
  switch (problem.code) {
    case "missing":
      return missingReviewWords(problem.missing, account);
    case "reviewed-refused":
      return `The reviewed plan was refused by a safety rail, so it approves nothing: ${problem.refusals.map((r) => refusalWords(r, surface)).join(" ")}`;
    case "other-account":
      return `The reviewed plan was made against ${problem.planned}, not ${problem.actual ?? "(no URL)"}, so it approves nothing here.`;
  }
}

/** Why there is no usable reviewed plan (for `account`: "" for a config without `accounts:`). */
export function missingReviewWords(missing: MissingReview, account = ""): string {
  switch (missing.code) {
    case "not-a-push":
      return `apply ran on a ${missing.event || "unknown"} event, not on a push that merged a reviewed pull request`;
    case "direct-push":
      return `commit ${missing.sha.slice(0, 12)} was pushed directly, not merged from a pull request, so nobody reviewed its plan`;
    case "no-comment":
      return `pull request #${missing.pullRequest} has no plan comment for ${missing.config} written by ${missing.identity}`;
    case "no-section":
      return `pull request #${missing.pullRequest}: The plan comment has no section for ${account === "" ? "this config" : `account ${account}`}: its leg did not plan this pull request`;
    case "stale":
    case "unusable":
      return `pull request #${missing.pullRequest}: ${missing.problem.replace(/\.$/, "")}`;
  }
}

/** `review: …`: what became of the review (DESIGN §3), one line. */
export function reviewStatusLine(review: ReviewOutcome, run: Pick<AccountRun, "results" | "skipped">): string {
  const applied = run.results?.counts.applied ?? 0;
  const failed = run.results?.counts.failed ?? 0;
  const notReviewed = run.skipped.filter((item) => item.reason === "not-reviewed").length;
  switch (review.status) {
    case "applied":
      return applied === 0
        ? "review: applied (nothing was due: the account already matches the reviewed plan)"
        : `review: applied (${plural(applied, "reviewed change")}, all that were due)`;
    case "partial": {
      const rest = [...(notReviewed > 0 ? [`${notReviewed} not in the reviewed plan`] : []), ...(failed > 0 ? [`${failed} failed`] : [])];
      return `review: partial (${applied} applied${rest.length > 0 ? `, ${rest.join(", ")}` : ""})`;
    }
    case "nothing-applied":
      return "review: nothing applied";
    case "stale":
      return "review: stale (the reviewed plan was made for another commit): nothing applied";
    case "missing":
      return "review: missing (no usable reviewed plan): nothing applied";
  }
}
