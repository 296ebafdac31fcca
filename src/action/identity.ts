/**
 * Which comments are the Action's own (DESIGN §7), one answer everywhere: those written by the identity its
 * token writes as. Anyone can post a comment that starts with our marker; only ours is updated, deleted, or
 * trusted to carry a reviewed plan.
 */
import type { getOctokit } from "@actions/github";
import { UsageError } from "../errors.ts";

type Octokit = ReturnType<typeof getOctokit>;

/**
 * The login this token writes comments as, whatever kind of token it is: the `bot-login` input, else
 * `GET /user` (personal access tokens), else GraphQL's `viewer`, which also answers for installation tokens
 * (the workflow's GITHUB_TOKEN is `github-actions[bot]`, a GitHub App's `<app-slug>[bot]`; `GET /user` gives
 * them 403 "Resource not accessible by integration").
 */
export async function actionIdentity(octokit: Octokit, botLogin: string | undefined): Promise<string> {
  if (botLogin) return botLogin;
  try {
    const { data } = await octokit.rest.users.getAuthenticated();
    if (data.login) return data.login;
  } catch {
    // An installation token: GraphQL's viewer answers for it.
  }
  try {
    const { viewer } = await octokit.graphql<{ viewer?: { login?: unknown } }>("query { viewer { login } }");
    if (typeof viewer?.login === "string" && viewer.login) return viewer.login;
  } catch {
    // Nothing else to try.
  }
  throw new UsageError(
    "cannot tell which account github-token belongs to (GET /user and GraphQL `viewer` both failed), so no plan comment can be trusted: " +
      "set the bot-login input to the login that writes the plan comments (e.g. github-actions[bot])",
  );
}

/**
 * Whether a comment is ours: written by the Action's identity, the same answer for the sticky comment and for
 * the reviewed plan on merge. GraphQL names a bot without the `[bot]` that REST shows; a user's login can
 * never contain `[`.
 */
export function writtenBy(user: { login: string } | null | undefined, identity: string): boolean {
  if (!user) return false;
  return user.login === identity || user.login === `${identity}[bot]`;
}
