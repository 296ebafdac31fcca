/**
 * One comment per config file on a pull request, found again by its hidden marker and updated in place, so
 * a pull request's conversation shows the latest plan once instead of one comment per push; a section in it
 * per account (comment-sections.ts).
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

/** How a step keeps its sections: bounded attempts, each verified after a pause when other legs may write. */
export interface SectionOptions {
  /** Other legs may write sections of this comment at the same moment (a fleet's matrix): verify after writing. */
  verify: boolean;
  /** Writes tried before giving up, when verifying. Default 5. */
  attempts?: number;
  /** The pause before reading the comment back, in ms (plus up to as much again, at random). Default 1,500. */
  settleMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** The accounts of the config (comment-sections.ts `withSection`): sections of others may be dropped to fit. */
  accounts?: readonly string[] | undefined;
}

/**
 * Writes `own` (sections by account) into the config's one marked comment, keeping the other accounts'
 * sections; only the Action's own comments count (anyone can post one that starts with the marker). Two
 * marked comments left by a race are merged into the oldest, the others deleted. GitHub has no compare-and-set
 * on comments: two legs that read at the same moment would each write back only their own section. So when
 * other legs may write, the comment is read back after a pause and the sections written again (with whatever
 * sections are there now) until they are found intact, at most `attempts` times.
 */
export async function upsertSections(
  octokit: Octokit,
  target: StickyTarget,
  own: ReadonlyMap<string, string>,
  options: SectionOptions,
): Promise<StickyResult> {
  const { settleMs = 1500, sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)) } = options;
  const attempts = options.verify ? (options.attempts ?? 5) : 1;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const ours = await markedComments(octokit, target);
    // The whole body is checked against GitHub's limit before every write: a refused body loses the comment.
    const body = [...own].reduce(
      (bodies, [account, text]) => [withSection(target.marker, bodies, account, text, options.accounts)],
      ours.map((c) => c.body ?? ""),
    )[0]!;
    const [oldest, ...duplicates] = ours;
    const { owner, repo, issueNumber } = target;
    const { data } = oldest
      ? await octokit.rest.issues.updateComment({ owner, repo, comment_id: oldest.id, body })
      : await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
    for (const duplicate of duplicates) await deleteIfThere(octokit, { owner, repo, comment_id: duplicate.id });
    const result = { action: oldest ? ("updated" as const) : ("created" as const), id: data.id, url: data.html_url };
    if (!options.verify) return result;
    await sleep(settleMs + Math.floor(Math.random() * settleMs));
    const now = await markedComments(octokit, target);
    const intact = [...own.keys()].every((account) => sectionOf(now[0]?.body ?? "", account) === sectionOf(body, account));
    if (now.length === 1 && intact) return result;
  }
  throw new Error(`the ${[...own.keys()].join(", ")} section of the comment was overwritten ${attempts} times by other legs`);
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
