/**
 * `on-drift: pull-request` (DESIGN §7): one pull request per config and account that accepts the live changes
 * into the config, found again by its branch and its author (the Action's own identity). On drift, adopt's
 * edit is committed onto the branch over the commit the run checked out and the pull request opened, or
 * updated with the new edit and body; once the account matches again, it is closed with a comment.
 */
import * as core from "@actions/core";
import { adoptClosedComment, adoptCommitMessage, adoptPullTitle } from "../render/index.ts";
import { accountSection } from "./account-section.ts";
import { withSection } from "./comment-sections.ts";
import { type DriftWrite, driftMarker } from "./drift-issue.ts";
import type { Octokit, Repo } from "./github-write.ts";
import { actionIdentity, writtenBy } from "./identity.ts";
import { adoptBranch, pushFiles } from "./push-branch.ts";
import type { DriftAccount, RunContext } from "./run-context.ts";

/** Opens, updates or closes the account's adopt pull request; undefined when there is none and nothing to adopt. */
export async function syncAdoptPull(
  ctx: RunContext,
  { octokit, repo }: { octokit: Octokit; repo: Repo },
  drift: DriftAccount,
): Promise<DriftWrite | undefined> {
  const branch = adoptBranch(ctx.configLabel, drift.account);
  const identity = await actionIdentity(octokit, ctx.inputs.botLogin);
  const open = await ourPull(octokit, repo, branch, identity);
  const files = drift.adoption?.files ?? [];
  if (!drift.drifted) {
    if (!open) return undefined;
    const body = adoptClosedComment(ctx.configLabel, drift.account, ctx.event.runUrl);
    await octokit.rest.issues.createComment({ ...repo, issue_number: open.number, body });
    await octokit.rest.pulls.update({ ...repo, pull_number: open.number, state: "closed" });
    return { number: open.number, action: "closed", url: open.html_url };
  }
  if (files.length === 0) {
    core.info(`Nothing of the drift of ${drift.account || "the account"} can be adopted into ${ctx.configLabel}: no pull request.`);
    return undefined;
  }
  const { sha, branch: base } = ctx.event;
  if (!sha || !base)
    throw new Error("on-drift: pull-request runs on a branch (GITHUB_REF refs/heads/…, GITHUB_SHA): run it on a schedule or by hand");
  for (const file of files) {
    // A server's value echoing a secret must never reach the repository (DESIGN §12).
    if (ctx.redactor.redact(file.text) !== file.text)
      throw new Error(`the adopted ${file.path} would hold a secret of this run: nothing was pushed`);
  }
  const message = adoptCommitMessage(ctx.configLabel, drift.account);
  await pushFiles(octokit, repo, { base: sha, branch, message, files });
  const title = adoptPullTitle(ctx.configLabel, drift.account);
  const body = pullBody(ctx, drift);
  const { data } = open
    ? await octokit.rest.pulls.update({ ...repo, pull_number: open.number, title, body })
    : await octokit.rest.pulls.create({ ...repo, title, head: branch, base, body });
  return { number: data.number, action: open ? "updated" : "opened", url: data.html_url };
}

/** Adopt's report for the account, sized as a comment is (a pull request's body has GitHub's comment limit). */
function pullBody(ctx: RunContext, drift: DriftAccount): string {
  const marker = driftMarker(ctx, drift.account, "adopt");
  const own = { account: drift.account, report: drift.adoption!.report };
  const place = { marker, headSha: ctx.event.sha, fleet: [drift.account], reviewed: false };
  return withSection(marker, [], drift.account, accountSection(ctx, own, place));
}

/** The open pull request from the account's adopt branch that the Action's identity opened. */
async function ourPull(octokit: Octokit, repo: Repo, branch: string, identity: string) {
  const pulls = await octokit.paginate(octokit.rest.pulls.list, { ...repo, state: "open", head: `${repo.owner}:${branch}`, per_page: 100 });
  return pulls.filter((p) => writtenBy(p.user, identity)).sort((a, b) => a.number - b.number)[0];
}
