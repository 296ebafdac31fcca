/**
 * On a push to the default branch, `apply` looks for what was reviewed (DESIGN §7): the pull request the push
 * merged, its plan comment for this config written by the identity the Action runs as, and the reviewed plan
 * hidden in each account's section of it, made for the pull request's final head commit. Anything less is no
 * review, and says why.
 */
import type { getOctokit } from "@actions/github";
import { UsageError } from "../errors.ts";
import type { GivenPlan, MissingReview, ReviewSource } from "../run/types.ts";
import { sectionIdentity, sectionsOf } from "./comment-sections.ts";
import { markerFor } from "./compose.ts";
import { actionIdentity, writtenBy } from "./identity.ts";
import { decodeReviewedBlock } from "./reviewed-block.ts";
import type { RunContext } from "./run-context.ts";

type Octokit = ReturnType<typeof getOctokit>;

interface MergedPullRequest {
  number: number;
  headSha: string;
}

export interface FoundReview {
  /** What the pull request's comment holds for each account, or why there is no review at all. */
  given: Extract<GivenPlan, { reviewedByAccount: unknown }>;
  /** The pull request this push merged, when there is one: the apply's outcome is commented there. */
  pullRequest?: MergedPullRequest;
}

/** Finds the reviewed plans for this push; a missing piece is a MissingReview, never a throw (API failures throw). */
export async function findReview(ctx: RunContext, octokit: Octokit | undefined): Promise<FoundReview> {
  const { event } = ctx;
  if (event.name !== "push") return noReview({ code: "not-a-push", event: event.name });
  if (!octokit || !event.repo || !event.sha) {
    throw new UsageError(
      "apply on a push needs github-token, GITHUB_REPOSITORY and GITHUB_SHA to find the pull request it merged and its reviewed plan",
    );
  }
  const pullRequest = await mergedPullRequest(octokit, event.repo, event.sha);
  if (!pullRequest) return noReview({ code: "direct-push", sha: event.sha });
  const identity = await actionIdentity(octokit, ctx.inputs.botLogin);
  const marker = markerFor(ctx.configLabel);
  const comments = await octokit.paginate(octokit.rest.issues.listComments, {
    ...event.repo,
    issue_number: pullRequest.number,
    per_page: 100,
  });
  // Only the Action's own comment counts: anyone can post a comment that starts with the marker.
  const mine = comments.find((c) => writtenBy(c.user, identity) && c.body?.trimStart().startsWith(marker));
  const number = pullRequest.number;
  if (!mine) return { ...noReview({ code: "no-comment", pullRequest: number, config: ctx.configLabel, identity }), pullRequest };
  const reviewedByAccount = reviewsIn(mine.body ?? "", ctx.configLabel, pullRequest);
  return { given: { reviewedByAccount, otherwise: { code: "no-section", pullRequest: number } }, pullRequest };
}

/**
 * The reviewed plan of each account's section of the plan comment `body`, or why it is unusable: each must be
 * made for the pull request's head commit and for its own account of `configLabel` (a block copied into another
 * account's section is for another config). Pure.
 */
export function reviewsIn(body: string, configLabel: string, pullRequest: MergedPullRequest): Map<string, ReviewSource> {
  const reviewed = new Map<string, ReviewSource>();
  for (const [account, section] of sectionsOf(body)) reviewed.set(account, reviewIn(configLabel, section, account, pullRequest));
  return reviewed;
}

function reviewIn(configLabel: string, body: string, account: string, pullRequest: MergedPullRequest): ReviewSource {
  const config = account === "" ? configLabel : sectionIdentity(configLabel, account);
  const decoded = decodeReviewedBlock(body, { headSha: pullRequest.headSha, config });
  if (!("problem" in decoded)) return decoded.plan;
  const code = decoded.code === "stale" ? "stale" : "unusable";
  return { missing: { code, pullRequest: pullRequest.number, problem: decoded.problem } };
}

function noReview(missing: MissingReview): FoundReview {
  return { given: { reviewedByAccount: new Map(), otherwise: missing } };
}

/**
 * The pull request `sha` merged: the merged one whose merge commit is `sha` (a merge, squash or rebase
 * merge), else a merged one that contains it.
 */
async function mergedPullRequest(
  octokit: Octokit,
  repo: { owner: string; repo: string },
  sha: string,
): Promise<MergedPullRequest | undefined> {
  const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({ ...repo, commit_sha: sha, per_page: 100 });
  const merged = data.filter((pr) => Boolean(pr.merged_at));
  const pr = merged.find((p) => p.merge_commit_sha === sha) ?? merged.find((p) => p.state === "closed");
  return pr ? { number: pr.number, headSha: pr.head.sha } : undefined;
}
