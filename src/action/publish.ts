/**
 * Where a Report goes: the job summary always, and the sticky comment on a pull request. Both are
 * redacted here, the last step before GitHub: the runner masks the log, not these.
 */
import * as core from "@actions/core";
import { getOctokit } from "@actions/github";
import { commentBody, markerFor, summaryBody } from "./compose.ts";
import type { ActionReport, RunContext } from "./execute.ts";
import type { Report } from "./report.ts";
import { upsertComment } from "./sticky-comment.ts";

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
export async function writeComment(ctx: RunContext, report: Report): Promise<void> {
  const pr = ctx.event.pullRequest;
  if (!ctx.inputs.comment || !pr) return;
  if (!ctx.event.repo || !ctx.inputs.githubToken) {
    core.warning("No comment on the pull request: github-token or GITHUB_REPOSITORY is missing. The plan is in the job summary.");
    return;
  }
  const marker = markerFor(ctx.configLabel);
  const body = ctx.redactor.redact(commentBody(report, { marker, headSha: pr.headSha, runUrl: ctx.event.runUrl }));
  try {
    const octokit = getOctokit(ctx.inputs.githubToken);
    const result = await upsertComment(octokit, { ...ctx.event.repo, issueNumber: pr.number, marker }, body);
    core.info(`${result.action === "created" ? "Created" : "Updated"} the plan comment: ${result.url}`);
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (status === 403 || status === 404) {
      const why = pr.fork ? "a pull request from a fork gets a read-only token" : "the workflow may lack `permissions: pull-requests: write`";
      core.warning(`Could not comment on the pull request (HTTP ${status}: ${why}). The plan is in the job summary.`);
      return;
    }
    throw new Error(`could not update the plan comment on pull request #${pr.number}: ${(error as Error).message}`, { cause: error });
  }
}
