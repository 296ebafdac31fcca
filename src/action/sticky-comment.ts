/**
 * One comment per config file on a pull request, found again by its hidden marker and updated in place, so
 * a pull request's conversation shows the latest plan once instead of one comment per push.
 */
import type { getOctokit } from "@actions/github";
import { writtenBy } from "./identity.ts";

type Octokit = ReturnType<typeof getOctokit>;

export interface StickyTarget {
  owner: string;
  repo: string;
  issueNumber: number;
  /** The first line of the comment: `<!-- sitesync-plan: sitesync.yaml -->`. */
  marker: string;
  /** The login the Action writes as (identity.ts): only its comments are ours. */
  identity: string;
}

export interface StickyResult {
  action: "created" | "updated";
  id: number;
  url: string;
}

/**
 * Creates or updates the marked comment. Reads every page of comments first (a busy pull request has more
 * than 100); if a race left two marked comments, the oldest is kept and the others are deleted.
 */
export async function upsertComment(octokit: Octokit, target: StickyTarget, body: string): Promise<StickyResult> {
  const { owner, repo, issueNumber, marker, identity } = target;
  const comments = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: issueNumber, per_page: 100 });
  // Only our own comments count: anyone can post a comment that starts with the marker, and theirs must be
  // neither overwritten nor deleted.
  const [mine, ...duplicates] = comments.filter((c) => writtenBy(c.user, identity) && c.body?.trimStart().startsWith(marker));
  if (!mine) {
    const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
    return { action: "created", id: data.id, url: data.html_url };
  }
  const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: mine.id, body });
  for (const duplicate of duplicates) await octokit.rest.issues.deleteComment({ owner, repo, comment_id: duplicate.id });
  return { action: "updated", id: data.id, url: data.html_url };
}
