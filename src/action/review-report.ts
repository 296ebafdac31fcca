/**
 * What an apply on merge says about the review (issue 13): which case happened, every change that was not
 * applied with its reason, the reviewed changes no longer needed, and how to proceed. Pure.
 */
import { changeLine, md } from "../render/index.ts";
import { ExitCode } from "../run/exit-code.ts";
import type { Outcome } from "../run/types.ts";
import { type FoundReview, HOW_TO_PROCEED, type ReviewStatus } from "./find-review.ts";
import type { Report } from "./report.ts";

/** `report` with the review's verdict first; an apply that left changes unapplied fails (exit 4) saying so. */
export function withReview(report: Report, outcome: Outcome, status: ReviewStatus, found: FoundReview | undefined): Report {
  const review = outcome.review;
  const notApplied = review?.notApplied ?? [];
  const where = found?.pullRequest ? `pull request #${found.pullRequest.number}` : "the pull request";
  const blocks: string[] = [];
  switch (status) {
    case "unreviewed":
      blocks.push(callout("WARNING", "Applied without a reviewed plan: `apply-unreviewed: true`, run by hand."));
      break;
    case "applied":
      blocks.push(
        callout(
          "NOTE",
          `Applied what ${where} reviewed: only the changes identical in its reviewed plan and in a fresh plan of the account as it is now.`,
        ),
      );
      break;
    case "partial": {
      const n = notApplied.length;
      blocks.push(
        callout(
          "CAUTION",
          `${n} change${n === 1 ? " was" : "s were"} not applied: not in the reviewed plan of ${where}. ` +
            "The account or the config changed between the review and the merge (an edit in the web UI, another pull request). " +
            (review?.problem ? `${md(review.problem)} ` : "") +
            `Review ${n === 1 ? "it" : "them"} in a new pull request, or run the workflow by hand (workflow_dispatch) with \`apply-unreviewed: true\`.`,
        ),
      );
      break;
    }
    default: {
      if (notApplied.length === 0 && !review?.problem) {
        blocks.push(callout("NOTE", `No reviewed plan (${status}), and none was needed: the account matches the config.`));
        break;
      }
      const why = review?.problem ?? (found && "missing" in found.source ? found.source.missing : "there is no reviewed plan");
      blocks.push(callout("CAUTION", `Nothing reviewed was applied: ${md(why)}.`, HOW_TO_PROCEED));
    }
  }
  if (notApplied.length > 0) {
    blocks.push(
      ["#### Not applied: not in the reviewed plan", ...notApplied.map((i) => `- ${md(changeLine(i.change))}: ${md(i.note ?? "")}`)].join(
        "\n",
      ),
    );
  }
  if (review && review.noLongerNeeded.length > 0) {
    const lines = review.noLongerNeeded.map((c) => `- ${md(changeLine(c))}`);
    blocks.push(["#### Reviewed, no longer needed (the account already matches)", ...lines].join("\n"));
  }
  const summary = `${blocks.join("\n\n")}\n\n${report.summary}`;
  if (report.exitCode !== ExitCode.refused || report.failure) return { ...report, summary };
  const failure =
    status === "partial"
      ? `${notApplied.length} change${notApplied.length === 1 ? "" : "s"} not applied: not in the reviewed plan of ${where}`
      : `nothing reviewed was applied (${status}). ${HOW_TO_PROCEED}`;
  return { ...report, summary, failure };
}

function callout(kind: "NOTE" | "WARNING" | "CAUTION", ...lines: string[]): string {
  return [`> [!${kind}]`, ...lines.map((line) => `> ${line}`)].join("\n");
}
