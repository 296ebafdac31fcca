/**
 * Where a Report goes: the job summary always, and the sticky comment on a pull request. Both are
 * redacted here, the last step before GitHub: the runner masks the log, not these.
 */
import * as core from "@actions/core";
import { getOctokit } from "@actions/github";
import { UsageError } from "../errors.ts";
import { accountSection, withReviewedBlock } from "./account-section.ts";
import { sectionIdentity } from "./comment-sections.ts";
import { COMMENT_LIMIT, commentBody, markerFor, summaryBody } from "./compose.ts";
import { actionIdentity } from "./identity.ts";
import type { ActionReport, RunContext } from "./run-context.ts";
import { upsertComment, upsertSection } from "./sticky-comment.ts";

/** Writes the job summary (when the runner provides one). */
export async function writeSummary(ctx: RunContext, outcome: ActionReport): Promise<void> {
  if (!ctx.env.GITHUB_STEP_SUMMARY) {
    core.debug("GITHUB_STEP_SUMMARY is not set: no job summary written");
    return;
  }
  await core.summary.addRaw(ctx.redactor.redact(summaryBody(outcome.report, outcome.planFile)), true).write();
}

/**
 * Creates or updates this config's comment on the pull request. A token that may not comment (403: a
 * fork's read-only token, or no `pull-requests: write`) is a warning: the job summary has the plan. Any
 * other failure throws, since the comment left in place would show an older plan as if it were current.
 */
export async function writeComment(ctx: RunContext, outcome: ActionReport): Promise<void> {
  const pr = ctx.event.pullRequest;
  if (!ctx.inputs.comment || !pr) return;
  if (!ctx.event.repo || !ctx.inputs.githubToken) {
    core.warning("No comment on the pull request: github-token or GITHUB_REPOSITORY is missing. The plan is in the job summary.");
    return;
  }
  if (ctx.inputs.account) return writeSection(ctx, outcome, ctx.inputs.account);
  const marker = markerFor(ctx.configLabel);
  const { report, block } = withReviewedBlock(ctx, outcome, pr.headSha);
  // The visible part is cut to leave room for the block, never the block: the merge applies only what it holds.
  const visible = ctx.redactor.redact(
    commentBody(report, { marker, headSha: pr.headSha, runUrl: ctx.event.runUrl }, COMMENT_LIMIT - block.length),
  );
  const body = visible + block;
  try {
    const octokit = getOctokit(ctx.inputs.githubToken);
    const identity = await actionIdentity(octokit, ctx.inputs.botLogin);
    const result = await upsertComment(octokit, { ...ctx.event.repo, issueNumber: pr.number, marker, identity }, body);
    core.info(`${result.action === "created" ? "Created" : "Updated"} the plan comment: ${result.url}`);
  } catch (error) {
    if (error instanceof UsageError) {
      core.warning(`No comment on the pull request: ${error.message}. The plan is in the job summary.`);
      return;
    }
    const status = (error as { status?: unknown }).status;
    if (status === 403 || status === 404) {
      const why = pr.fork
        ? "a pull request from a fork gets a read-only token"
        : "the workflow may lack `permissions: pull-requests: write`";
      core.warning(`Could not comment on the pull request (HTTP ${status}: ${why}). The plan is in the job summary.`);
      return;
    }
    throw new Error(`could not update the plan comment on pull request #${pr.number}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * A leg of a fleet (the account input): its account's section of the config's one comment, written beside the
 * other legs' sections and verified after writing (sticky-comment.ts), with the reviewed plan of that account.
 * Its share of the comment is decided from the accounts of the config, as every leg's is (comment-sections.ts).
 */
async function writeSection(ctx: RunContext, outcome: ActionReport, account: string): Promise<void> {
  const pr = ctx.event.pullRequest;
  if (!pr || !ctx.event.repo || !ctx.inputs.githubToken) return;
  const marker = markerFor(ctx.configLabel);
  const own = accountSection(ctx, outcome, account, pr.headSha);
  try {
    const octokit = getOctokit(ctx.inputs.githubToken);
    const login = await actionIdentity(octokit, ctx.inputs.botLogin);
    const target = { ...ctx.event.repo, issueNumber: pr.number, marker, identity: login };
    const result = await upsertSection(octokit, target, account, own, { accounts: outcome.accounts });
    core.info(`Wrote the ${account} section of the plan comment: ${result.url}`);
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (error instanceof UsageError || status === 403 || status === 404) {
      core.warning(`No comment on the pull request: ${(error as Error).message}. The plan is in the job summary.`);
      return;
    }
    throw new Error(
      `could not write the ${account} section of the plan comment on pull request #${pr.number}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * An apply on merge comments its outcome on the pull request it merged (one comment per config, updated by
 * a rerun): what was applied and every change that was not, with the reason.
 */
export async function writeMergeComment(ctx: RunContext, outcome: ActionReport): Promise<void> {
  const number = outcome.mergedPullRequest;
  if (!ctx.inputs.comment || number === undefined || !ctx.event.repo || !ctx.inputs.githubToken) return;
  // A leg of a fleet comments its own account's outcome: legs never share the merge comment.
  const label = ctx.inputs.account ? sectionIdentity(ctx.configLabel, ctx.inputs.account) : ctx.configLabel;
  const marker = markerFor(label).replace("sitesync-plan:", "sitesync-apply:");
  const body = ctx.redactor.redact(commentBody(outcome.report, { marker, headSha: ctx.event.sha, runUrl: ctx.event.runUrl }));
  try {
    const octokit = getOctokit(ctx.inputs.githubToken);
    const identity = await actionIdentity(octokit, ctx.inputs.botLogin);
    const result = await upsertComment(octokit, { ...ctx.event.repo, issueNumber: number, marker, identity }, body);
    core.info(`${result.action === "created" ? "Commented" : "Updated the comment"} on pull request #${number}: ${result.url}`);
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (status === 403 || status === 404) {
      core.warning(
        `Could not comment on pull request #${number} (HTTP ${status}: the workflow may lack \`permissions: pull-requests: write\`). The outcome is in the job summary.`,
      );
      return;
    }
    throw new Error(`could not comment on pull request #${number}: ${(error as Error).message}`, { cause: error });
  }
}
