/**
 * One comment per config file on a pull request, found again by its hidden marker and updated in place, so
 * a pull request's conversation shows the latest plan once instead of one comment per push.
 */
import type { getOctokit } from "@actions/github";
import { sectionOf, withSection } from "./comment-sections.ts";
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

/** How a leg keeps its section: bounded attempts, each verified after a pause (legs finish at the same moment). */
export interface SectionOptions {
  /** Writes tried before giving up. Default 5. */
  attempts?: number;
  /** The pause before reading the comment back, in ms (plus up to as much again, at random). Default 1,500. */
  settleMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** The accounts of the config (comment-sections.ts `withSection`): sections of others may be dropped to fit. */
  accounts?: readonly string[] | undefined;
}

/**
 * Writes the section of `account` into the config's one comment and keeps the other accounts' sections
 * (issue 19 item 5). GitHub has no compare-and-set on comments: two legs that read at the same moment would
 * each write back only their own section. So after each write the comment is read back after a pause, and
 * the section written again (with whatever sections are there now) until it is found intact, at most
 * `attempts` times. Two marked comments left by a race are merged into the oldest; the others are deleted.
 */
export async function upsertSection(
  octokit: Octokit,
  target: StickyTarget,
  account: string,
  own: string,
  options: SectionOptions = {},
): Promise<StickyResult> {
  const { attempts = 5, settleMs = 1500, sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)) } = options;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const ours = await markedComments(octokit, target);
    // The whole body is checked against GitHub's limit before every write: a refused body loses the comment.
    const body = withSection(
      target.marker,
      ours.map((c) => c.body ?? ""),
      account,
      own,
      options.accounts,
    );
    const written = sectionOf(body, account);
    const [oldest, ...duplicates] = ours;
    const { owner, repo, issueNumber } = target;
    const { data } = oldest
      ? await octokit.rest.issues.updateComment({ owner, repo, comment_id: oldest.id, body })
      : await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
    for (const duplicate of duplicates) await deleteIfThere(octokit, { owner, repo, comment_id: duplicate.id });
    await sleep(settleMs + Math.floor(Math.random() * settleMs));
    const now = await markedComments(octokit, target);
    if (now.length === 1 && now[0] && sectionOf(now[0].body ?? "", account) === written) {
      return { action: oldest ? "updated" : "created", id: data.id, url: data.html_url };
    }
  }
  throw new Error(`the ${account} section of the plan comment was overwritten ${attempts} times by other legs`);
}

/** Our marked comments on the pull request, oldest first. */
async function markedComments(octokit: Octokit, target: StickyTarget) {
  const { owner, repo, issueNumber, marker, identity } = target;
  const comments = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: issueNumber, per_page: 100 });
  return comments.filter((c) => writtenBy(c.user, identity) && c.body?.trimStart().startsWith(marker));
}

/** Another leg may have deleted the same duplicate first: a 404 then means done. */
async function deleteIfThere(octokit: Octokit, comment: { owner: string; repo: string; comment_id: number }): Promise<void> {
  try {
    await octokit.rest.issues.deleteComment(comment);
  } catch (error) {
    if ((error as { status?: unknown }).status !== 404) throw error;
  }
}
