/**
 * What `command: drift` leaves on GitHub, account by account (DESIGN §7): the drift issue, or the adopt pull
 * request, as `on-drift` says; and the outputs that name them. These writes are the run's whole point, so a
 * token that may not make them fails the step (github-write.ts), naming the permission.
 */
import * as core from "@actions/core";
import { type DriftWrite, syncDriftIssue } from "./drift-issue.ts";
import { syncAdoptPull } from "./drift-pull.ts";
import { writeToGitHub } from "./github-write.ts";
import type { ActionReport, DriftAccount, RunContext } from "./run-context.ts";

export async function writeDrift(ctx: RunContext, outcome: ActionReport): Promise<void> {
  const drift = outcome.drift;
  if (!drift || drift.mode === "none") return;
  const issue = drift.mode === "issue";
  const where = {
    refused: issue ? "Could not write the drift issue" : "Could not write the adopt pull request",
    failed: issue ? "could not write the drift issue" : "could not write the adopt pull request",
    permission: issue ? "issues: write" : "contents: write, pull-requests: write",
    fallback: "The drift is in the job summary.",
    required: true,
  };
  const written = await writeToGitHub(ctx, where, async (octokit, repo) => {
    const all: DriftWrite[] = [];
    for (const account of drift.accounts.filter((a) => a.known)) {
      const own = outcome.accounts.find((a) => a.account === account.account);
      if (!own || failedAdoption(account)) continue;
      const done = issue
        ? await syncDriftIssue(ctx, { octokit, repo }, account, own)
        : await syncAdoptPull(ctx, { octokit, repo }, account);
      if (!done) continue;
      const what = issue ? "drift issue" : "adopt pull request";
      core.info(
        `${done.action[0]!.toUpperCase()}${done.action.slice(1)} the ${what} of ${account.account || ctx.configLabel}: #${done.number} ${done.url}`,
      );
      all.push(done);
    }
    return all;
  });
  core.setOutput(issue ? "issue-number" : "pull-request-number", (written ?? []).map((w) => w.number).join(" "));
  const failed = drift.accounts.flatMap((account) => failedAdoption(account) ?? []);
  if (failed.length > 0) throw new Error(failed.join("; "));
}

/** Why an account's drift gets no pull request: its adopt failed or was refused (its report, in the job summary, says where). */
function failedAdoption(account: DriftAccount): string | undefined {
  const failure = account.adoption?.report.failure;
  if (!account.drifted || failure === undefined) return undefined;
  return account.account === "" ? failure : `${account.account}: ${failure}`;
}
