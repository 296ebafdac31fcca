/**
 * Files committed onto a branch through GitHub's Git data API, without a checkout, a `git` binary or a
 * third-party action: one commit over the base commit's tree, and the branch moved to it (created, or reset
 * when it exists, so that a second day's adopt replaces the first day's instead of stacking on it).
 */
import type { Octokit, Repo } from "./github-write.ts";

export interface BranchCommit {
  /** The commit the files are changed from: the one the run checked out. */
  base: string;
  branch: string;
  message: string;
  /** Each file's path in the repository and its whole new text. */
  files: readonly { path: string; text: string }[];
}

/** Commits `files` over `base` and points `branch` at the commit; returns its sha. */
export async function pushFiles(octokit: Octokit, repo: Repo, change: BranchCommit): Promise<string> {
  const { data: base } = await octokit.rest.git.getCommit({ ...repo, commit_sha: change.base });
  const tree = change.files.map(({ path, text }) => ({ path, mode: "100644" as const, type: "blob" as const, content: text }));
  const { data: created } = await octokit.rest.git.createTree({ ...repo, base_tree: base.tree.sha, tree });
  const { data: commit } = await octokit.rest.git.createCommit({
    ...repo,
    message: change.message,
    tree: created.sha,
    parents: [change.base],
  });
  const ref = `heads/${change.branch}`;
  if (await refExists(octokit, repo, ref)) await octokit.rest.git.updateRef({ ...repo, ref, sha: commit.sha, force: true });
  else await octokit.rest.git.createRef({ ...repo, ref: `refs/${ref}`, sha: commit.sha });
  return commit.sha;
}

async function refExists(octokit: Octokit, repo: Repo, ref: string): Promise<boolean> {
  try {
    await octokit.rest.git.getRef({ ...repo, ref });
    return true;
  } catch (error) {
    if ((error as { status?: unknown }).status === 404) return false;
    throw error;
  }
}

/**
 * The branch of an account's adopt pull request: one per config and account, a valid ref whatever the config's
 * path holds (git check-ref-format: no space, `~^:?*[\`, `..`, `@{`, or a component starting with a dot).
 */
export function adoptBranch(configLabel: string, account: string): string {
  const safe = (text: string) =>
    text
      .replace(/[\u0000-\u0020\u007f~^:?*[\\]|\.\.|@\{/g, "-")
      .split("/")
      .map((part) => part.replace(/^\.+/, "-").replace(/\.lock$/, "-lock"))
      .join("/");
  return `sitesync/adopt/${account === "" ? "" : `${safe(account)}/`}${safe(configLabel)}`;
}
