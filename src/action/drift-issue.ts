/**
 * `on-drift: issue` (DESIGN §7): one open issue per config and account, found again by its marker in an issue
 * the Action's own identity wrote (identity.ts: anyone can open an issue that starts with the marker). Opened on
 * drift, updated in place while it lasts, closed with a comment once the account matches again. Its body is the
 * account's section as the comment model composes it (account-section.ts), so it fits GitHub's limit too.
 */
import { driftClosedComment, driftIssueIntro, driftIssueTitle } from "../render/index.ts";
import { accountSection } from "./account-section.ts";
import { sectionIdentity, withSection } from "./comment-sections.ts";
import { markerFor } from "./compose.ts";
import type { Octokit, Repo } from "./github-write.ts";
import { actionIdentity, writtenBy } from "./identity.ts";
import type { AccountReport, DriftAccount, RunContext } from "./run-context.ts";

export interface DriftWrite {
  /** The issue or pull request written, and what became of it. */
  number: number;
  action: "opened" | "updated" | "closed";
  url: string;
}

/** The marker of an account's drift issue or adopt pull request: one of each per config and account. */
export function driftMarker(ctx: RunContext, account: string, kind: "drift" | "adopt"): string {
  return markerFor(account === "" ? ctx.configLabel : sectionIdentity(ctx.configLabel, account), kind);
}

/** Opens, updates or closes the account's drift issue; undefined when there is none and no drift. */
export async function syncDriftIssue(
  ctx: RunContext,
  { octokit, repo }: { octokit: Octokit; repo: Repo },
  drift: DriftAccount,
  own: AccountReport,
): Promise<DriftWrite | undefined> {
  const marker = driftMarker(ctx, drift.account, "drift");
  const identity = await actionIdentity(octokit, ctx.inputs.botLogin);
  const open = await ourIssue(octokit, repo, marker, identity);
  if (!drift.drifted) {
    if (!open) return undefined;
    const body = driftClosedComment(ctx.configLabel, drift.account, ctx.event.runUrl);
    await octokit.rest.issues.createComment({ ...repo, issue_number: open.number, body });
    await octokit.rest.issues.update({ ...repo, issue_number: open.number, state: "closed", state_reason: "completed" });
    return { number: open.number, action: "closed", url: open.html_url };
  }
  const title = driftIssueTitle(ctx.configLabel, drift.account);
  const body = issueBody(ctx, own, marker);
  const { data } = open
    ? await octokit.rest.issues.update({ ...repo, issue_number: open.number, title, body })
    : await octokit.rest.issues.create({ ...repo, title, body });
  return { number: data.number, action: open ? "updated" : "opened", url: data.html_url };
}

/** The account's plan under the words that say what drift is and the two ways out, sized as a comment is. */
function issueBody(ctx: RunContext, own: AccountReport, marker: string): string {
  const intro = driftIssueIntro(ctx.configLabel, own.account);
  const report = { ...own.report, summary: `${intro}\n\n${own.report.summary}` };
  const place = { marker, headSha: ctx.event.sha, fleet: [own.account], reviewed: false };
  return withSection(marker, [], own.account, accountSection(ctx, { ...own, report }, place));
}

/** The oldest open issue (never a pull request) that the Action's identity wrote with this marker. */
async function ourIssue(octokit: Octokit, repo: Repo, marker: string, identity: string) {
  const issues = await octokit.paginate(octokit.rest.issues.listForRepo, { ...repo, state: "open", per_page: 100 });
  const ours = issues.filter((i) => !i.pull_request && writtenBy(i.user, identity) && (i.body ?? "").trimStart().startsWith(marker));
  return ours.sort((a, b) => a.number - b.number)[0];
}
