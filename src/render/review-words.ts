/** Why a review approves nothing at all, in words (the CLI's warning, the Action's callout). Pure. */
import type { ReviewOutcome } from "../run/types.ts";

export function reviewProblemWords(problem: NonNullable<ReviewOutcome["problem"]>): string {
  switch (problem.code) {
    case "missing":
      return problem.why;
    case "reviewed-refused":
      return `The reviewed plan was refused by a safety rail, so it approves nothing: ${problem.refusals.join(" ")}`;
    case "other-account":
      return `The reviewed plan was made against ${problem.planned}, not ${problem.actual ?? "(no URL)"}, so it approves nothing here.`;
  }
}
