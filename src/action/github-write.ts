/**
 * Every write of the Action to GitHub (the plan and apply comments, the check runs, the drift issue and the
 * adopt pull request) goes through here: one client, and one mapping of what GitHub refuses. A token that may
 * not write there (403, or 404 for a repository it cannot see) is a warning naming the permission to add,
 * unless the write is the run's whole point (the drift issue or pull request); any other failure throws, since
 * what is left in place would show an older outcome as current.
 */
import * as core from "@actions/core";
import { getOctokit } from "@actions/github";
import { UsageError } from "../errors.ts";
import type { RunContext } from "./run-context.ts";

export type Octokit = ReturnType<typeof getOctokit>;
export type Repo = { owner: string; repo: string };

export interface GitHubPlace {
  /** The warning's first words when GitHub refuses the write: `Could not comment on the pull request`. */
  refused: string;
  /** The error's first words when the write fails otherwise: `could not update the plan comment on pull request #7`. */
  failed: string;
  /** The workflow permission it needs: `pull-requests: write`. */
  permission: string;
  /** Where the outcome is anyway, when this write is refused (`The plan is in the job summary.`). */
  fallback: string;
  /** A refusal fails the step instead of warning: the write is what the run is for. */
  required?: boolean;
}

/** Runs `write` with a client for the repository; undefined when the write was refused and only warned about. */
export async function writeToGitHub<T>(
  ctx: RunContext,
  place: GitHubPlace,
  write: (octokit: Octokit, repo: Repo) => Promise<T>,
): Promise<T | undefined> {
  const { repo } = ctx.event;
  const token = ctx.inputs.githubToken;
  if (!repo || !token) return refused(place, "github-token or GITHUB_REPOSITORY is missing");
  try {
    return await write(getOctokit(token), repo);
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (error instanceof UsageError) return refused(place, error.message);
    if (status === 403 || status === 404) {
      const fork = ctx.event.pullRequest?.fork;
      return refused(
        place,
        `HTTP ${status}: ${fork ? "a pull request from a fork gets a read-only token" : `the workflow may lack \`permissions: ${place.permission}\``}`,
      );
    }
    throw new Error(`${place.failed}: ${(error as Error).message}`, { cause: error });
  }
}

function refused(place: GitHubPlace, why: string): undefined {
  if (place.required) throw new UsageError(`${place.failed} (${why})`);
  core.warning(`${place.refused} (${why}). ${place.fallback}`);
  return undefined;
}
