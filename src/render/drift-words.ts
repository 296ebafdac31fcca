/**
 * The words of drift on GitHub (DESIGN §7, "Drift, built in"): the drift issue's title and first lines, the
 * comment that closes it, and the adopt pull request's title, commit message and closing comment. Pure; Markdown.
 */
import { md } from "./md.ts";

/** `the account` / `account eu`, as a title or a sentence names it. */
function whose(account: string): string {
  return account === "" ? "the account" : `account ${account}`;
}

/** The same, to start a sentence. */
function startWhose(account: string): string {
  return account === "" ? "The account" : `Account ${account}`;
}

export function driftIssueTitle(configLabel: string, account: string): string {
  return `sitesync: ${whose(account)} has drifted from ${configLabel}`;
}

/** What the drift issue says above the plan: what drift is, and the two ways out. */
export function driftIssueIntro(configLabel: string, account: string): string {
  const file = `\`${md(configLabel)}\``;
  return [
    `> [!WARNING]`,
    `> ${startWhose(account)} differs from ${file} on the default branch: someone changed websites outside git (the web UI?), or a merge was never applied. ` +
      "This issue is updated by every drift check while it lasts, and closed once the account matches again.",
    ">",
    `> - **The change was on purpose:** accept it into ${file} (\`sitesync adopt ${md(configLabel)}\`, or \`on-drift: pull-request\`) and merge that.`,
    `> - **It was a mistake:** apply ${file} to put the account back (run the apply workflow, or \`sitesync apply\`).`,
  ].join("\n");
}

/** The comment that closes the drift issue. */
export function driftClosedComment(configLabel: string, account: string, runUrl: string | undefined): string {
  const run = runUrl ? ` ([drift check](${runUrl}))` : "";
  return `${startWhose(account)} matches \`${md(configLabel)}\` again${run}: closing.`;
}

export function adoptPullTitle(configLabel: string, account: string): string {
  return `sitesync: accept the live changes of ${whose(account)} into ${configLabel}`;
}

export function adoptCommitMessage(configLabel: string, account: string): string {
  return `sitesync: accept the live changes of ${whose(account)} into ${configLabel}\n\nWritten by sitesync adopt: only the drifted lines are rewritten.`;
}

/** The comment that closes the adopt pull request once there is nothing left to adopt. */
export function adoptClosedComment(configLabel: string, account: string, runUrl: string | undefined): string {
  const run = runUrl ? ` ([drift check](${runUrl}))` : "";
  return `${startWhose(account)} matches \`${md(configLabel)}\` again${run}: nothing is left to adopt, closing.`;
}
