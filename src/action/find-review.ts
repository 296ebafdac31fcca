/**
 * On a push to the default branch, `apply` looks for what was reviewed (issue 13, DESIGN §7): the pull
 * request the push merged, its plan comment for this config written by the identity the Action runs as,
 * and the reviewed plan hidden in it, made for the pull request's final head commit. Anything less is no
 * review, and says why.
 */
import type { getOctokit } from "@actions/github";
import { UsageError } from "../errors.ts";
import type { ReviewSource } from "../run/types.ts";
import { markerFor } from "./compose.ts";
import type { RunContext } from "./execute.ts";
import { decodeReviewedBlock } from "./reviewed-block.ts";

type Octokit = ReturnType<typeof getOctokit>;

/**
 * `applied`/`partial` are decided after the run; the others before it: `direct-push` (no pull request was
 * merged by this push), `stale` (the last plan was for another head commit), `no-review` (no usable plan
 * comment, or not a push), `unreviewed` (`apply-unreviewed: true` by hand).
 */
export type ReviewStatus = "applied" | "partial" | "no-review" | "stale" | "direct-push" | "unreviewed";

export interface MergedPullRequest {
  number: number;
  headSha: string;
}

export interface FoundReview {
  source: ReviewSource;
  status: Exclude<ReviewStatus, "applied" | "partial" | "unreviewed"> | "reviewed";
  /** The pull request this push merged, when there is one: the apply's outcome is commented there. */
  pullRequest?: MergedPullRequest;
}

/** What a person can do when nothing reviewed can be applied. */
export const HOW_TO_PROCEED =
  "To apply the current plan anyway, run the workflow by hand (workflow_dispatch) with `apply-unreviewed: true`, " +
  "or open a pull request, let it plan, and merge it.";

/** Finds the reviewed plan for this push; a missing piece is `{ missing }`, never a throw (API failures throw). */
export async function findReview(ctx: RunContext, octokit: Octokit | undefined): Promise<FoundReview> {
  const { event } = ctx;
  if (event.name !== "push") {
    return noReview("no-review", `apply ran on a ${event.name || "unknown"} event, not on a push that merged a reviewed pull request`);
  }
  if (!octokit || !event.repo || !event.sha) {
    throw new UsageError(
      "apply on a push needs github-token, GITHUB_REPOSITORY and GITHUB_SHA to find the pull request it merged and its reviewed plan",
    );
  }
  const pullRequest = await mergedPullRequest(octokit, event.repo, event.sha);
  if (!pullRequest)
    return noReview(
      "direct-push",
      `commit ${event.sha.slice(0, 12)} was pushed directly, not merged from a pull request, so nobody reviewed its plan`,
    );
  const identity = await actionIdentity(octokit, ctx.inputs.botLogin);
  const marker = markerFor(ctx.configLabel);
  const comments = await octokit.paginate(octokit.rest.issues.listComments, {
    ...event.repo,
    issue_number: pullRequest.number,
    per_page: 100,
  });
  // Only the Action's own comment counts: anyone can post a comment that starts with the marker.
  const mine = comments.find((c) => writtenBy(c.user, identity) && c.body?.trimStart().startsWith(marker));
  const where = `pull request #${pullRequest.number}`;
  if (!mine) return { ...noReview("no-review", `${where} has no plan comment for ${ctx.configLabel} written by ${identity}`), pullRequest };
  const decoded = decodeReviewedBlock(mine.body, { headSha: pullRequest.headSha, config: ctx.configLabel });
  if ("problem" in decoded) {
    return {
      ...noReview(decoded.code === "stale" ? "stale" : "no-review", `${where}: ${decoded.problem.replace(/\.$/, "")}`),
      pullRequest,
    };
  }
  return { source: decoded.plan, status: "reviewed", pullRequest };
}

function noReview(status: FoundReview["status"], why: string): FoundReview {
  return { source: { missing: why }, status };
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

/**
 * The login this token writes comments as, whatever kind of token it is. GraphQL's `viewer` answers for
 * personal access tokens and for installation tokens alike (the workflow's GITHUB_TOKEN is
 * `github-actions[bot]`, a GitHub App's `<app-slug>[bot]`); `GET /user` answers for personal tokens only
 * (installation tokens get 403 "Resource not accessible by integration"). The `bot-login` input overrides both.
 */
export async function actionIdentity(octokit: Octokit, botLogin: string | undefined): Promise<string> {
  if (botLogin) return botLogin;
  try {
    const { viewer } = await octokit.graphql<{ viewer?: { login?: unknown } }>("query { viewer { login } }");
    if (typeof viewer?.login === "string" && viewer.login) return viewer.login;
  } catch {
    // Try the next way.
  }
  try {
    const { data } = await octokit.rest.users.getAuthenticated();
    if (data.login) return data.login;
  } catch {
    // Nothing else to try.
  }
  throw new UsageError(
    "cannot tell which account github-token belongs to (GraphQL `viewer` and GET /user both failed), so no plan comment can be trusted: " +
      "set the bot-login input to the login that writes the plan comments (e.g. github-actions[bot])",
  );
}

/** GraphQL names a bot without the `[bot]` that REST shows; a user's login can never contain `[`. */
function writtenBy(user: { login: string; type?: string } | null | undefined, identity: string): boolean {
  if (!user) return false;
  return user.login === identity || user.login === `${identity}[bot]`;
}
