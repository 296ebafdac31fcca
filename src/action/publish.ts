/**
 * Where a Report goes: the job summary always, and on GitHub one comment per config, a section per account
 * (comment-sections.ts): the plan comment on a pull request, the apply comment on the pull request a merge
 * applied. Everything is redacted here, the last step before GitHub: the runner masks the log, not these.
 */
import * as core from "@actions/core";
import { accountSection } from "./account-section.ts";
import { markerFor, summaryBody } from "./compose.ts";
import { writeToGitHub } from "./github-write.ts";
import { actionIdentity } from "./identity.ts";
import type { ActionReport, RunContext } from "./run-context.ts";
import { upsertSections } from "./sticky-comment.ts";

/** Writes the job summary (when the runner provides one). */
export async function writeSummary(ctx: RunContext, outcome: ActionReport): Promise<void> {
  if (!ctx.env.GITHUB_STEP_SUMMARY) {
    core.debug("GITHUB_STEP_SUMMARY is not set: no job summary written");
    return;
  }
  await core.summary.addRaw(ctx.redactor.redact(summaryBody(outcome.report, outcome.planFile)), true).write();
}

/** Which comment: the plan comment on the pull request planned, or the apply comment on the one a merge applied. */
type CommentKind = "plan" | "apply";

/** The plan comment: this run's sections, with their reviewed plans when it planned. */
export function writePlanComment(ctx: RunContext, outcome: ActionReport): Promise<void> {
  const pr = ctx.event.pullRequest;
  if (!pr) return Promise.resolve();
  return writeComment(ctx, outcome, { kind: "plan", issue: pr.number, headSha: pr.headSha });
}

/**
 * An apply on merge comments its outcome on the pull request it merged (one comment per config, a section per
 * account, updated by a rerun): what was applied and every change that was not, with the reason.
 */
export function writeApplyComment(ctx: RunContext, outcome: ActionReport): Promise<void> {
  if (outcome.mergedPullRequest === undefined) return Promise.resolve();
  return writeComment(ctx, outcome, { kind: "apply", issue: outcome.mergedPullRequest, headSha: ctx.event.sha });
}

/**
 * This run's sections of the config's comment of `kind`, beside the other legs' sections. A token that may not
 * comment (a fork's read-only token, or no `pull-requests: write`) is a warning: the job summary has the
 * outcome (github-write.ts).
 */
async function writeComment(ctx: RunContext, outcome: ActionReport, at: { kind: CommentKind; issue: number; headSha: string | undefined }) {
  if (!ctx.inputs.comment || outcome.accounts.length === 0) return;
  const marker = markerFor(ctx.configLabel, at.kind);
  const place = { marker, headSha: at.headSha, fleet: outcome.fleet, reviewed: at.kind === "plan" && ctx.inputs.command === "plan" };
  const own = new Map(outcome.accounts.map((account) => [account.account, accountSection(ctx, account, place)]));
  // Other legs of the fleet's matrix may write their sections of this comment at the same moment.
  const verify = outcome.fleet.some((name) => !own.has(name));
  const where = {
    refused: "Could not comment on the pull request",
    failed: `could not update the ${at.kind} comment on pull request #${at.issue}`,
    permission: "pull-requests: write",
    fallback: `The ${at.kind === "plan" ? "plan" : "outcome"} is in the job summary.`,
  };
  const result = await writeToGitHub(ctx, where, async (octokit, repo) => {
    const identity = await actionIdentity(octokit, ctx.inputs.botLogin);
    return upsertSections(octokit, { ...repo, issueNumber: at.issue, marker, identity }, own, { verify, accounts: outcome.fleet });
  });
  if (result)
    core.info(`${result.action === "created" ? "Created" : "Updated"} the ${at.kind} comment on pull request #${at.issue}: ${result.url}`);
}
