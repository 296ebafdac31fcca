/**
 * One renderer of the Outcome: the CLI (terminal) and the Action (GitHub) get the same sections from the same
 * data, and word every result from its code the same way.
 */
import { describe, expect, it } from "vitest";
import { liveWebsite } from "../../test/helpers/live-website.ts";
import type { ItemResult } from "../apply/types.ts";
import { DEFAULT_POLICY } from "../model/policy.ts";
import { plan } from "../plan/plan.ts";
import type { AccountRun, Outcome } from "../run/types.ts";
import { itemNote, renderOutcome, type Sections } from "./index.ts";

const fresh = plan(
  {
    policy: DEFAULT_POLICY,
    websites: [
      { domain: "a.example.com", state: "present", privacy: 1 },
      { domain: "b.example.com", state: "present", email: 1 },
      { domain: "new.example.com", state: "present" },
    ],
  },
  { websites: [liveWebsite(1, "a.example.com"), liveWebsite(2, "b.example.com")] },
  { configFile: "sitesync.yaml", configDigest: "d", target: { websites: "https://a.example" } },
);
const [create, updateA, updateB] = fresh.changes as [ItemResult["change"], ItemResult["change"], ItemResult["change"]];
const skipped: ItemResult[] = [
  { change: updateB, status: "skipped", reason: "not-reviewed", detail: { why: "live-changed", reviewedAction: "update" } },
];
const items: ItemResult[] = [
  { change: create, status: "applied", reason: "applied", id: 3 },
  { change: updateA, status: "failed", reason: "failed", error: { message: "500 Server Error" } },
  ...skipped,
];
const account: AccountRun = {
  name: "",
  target: fresh.target,
  keys: { apiKeyEnv: "SITESYNC_API_KEY", projectsApiKeyEnv: "SITESYNC_PROJECTS_API_KEY" },
  plan: fresh,
  results: { counts: { applied: 1, failed: 1, skipped: 1, unchanged: 0 }, items },
  skipped,
  review: { status: "partial", noLongerNeeded: [] },
  exitCode: 3,
};
const outcome: Outcome = { command: "apply", warnings: [], accounts: [account], exitCode: 3 };

const terminal = (o: Outcome): Sections => renderOutcome(o, { for: "terminal", format: "text", quiet: false, color: false, json: String });
const github = (o: Outcome): Sections =>
  renderOutcome(o, { for: "github", command: "apply", configLabel: "sitesync.yaml", merge: { pullRequest: 7 } });

describe("renderOutcome: the CLI and the Action show the same sections", () => {
  it("gives both a summary with the same counts, and every item that was not applied in the same words", () => {
    const text = terminal(outcome);
    const markdown = github(outcome);
    expect(text.summary).toMatch(/applied +failed +skipped +unchanged\n +1 +1 +1 +0/);
    expect(markdown.summary).toContain("| 1 | 1 | 1 | 0 |");
    const words = itemNote(skipped[0]!)!;
    expect(words).toBe("not applied: b.example.com (id 2) changed in the account since the review");
    expect(text.summary).toContain(words);
    expect(markdown.summary).toContain(words);
    expect(text.summary).toContain("500 Server Error");
    expect(markdown.summary).toContain("500 Server Error");
  });

  it("tells an interrupted apply to run again only when something is left to do", () => {
    const interrupted = (results: NonNullable<AccountRun["results"]>) =>
      terminal({ ...outcome, accounts: [{ ...account, review: undefined, results }], exitCode: 130, interrupted: "SIGINT" }).notes;
    const notStarted: ItemResult = { change: updateA, status: "skipped", reason: "not-started", note: "not started: SIGINT" };
    const counts = { applied: 1, failed: 0, skipped: 1, unchanged: 0 };
    expect(interrupted({ counts, items: [items[0]!, notStarted], interrupted: "SIGINT" })).toContain(
      "Interrupted by SIGINT: 1 applied, 0 failed, 1 not started. Run apply again to finish.",
    );
    expect(interrupted({ counts: { ...counts, skipped: 0 }, items: [items[0]!], interrupted: "SIGINT" })).toContain(
      "Interrupted by SIGINT: 1 applied, 0 failed, 0 not started. Every change had been sent: nothing is left to finish.",
    );
  });

  it("says what was not reviewed in both: a note for the terminal, a callout and the failure for GitHub", () => {
    expect(terminal(outcome).notes).toEqual([
      "review: partial (1 applied, 1 not in the reviewed plan, 1 failed)",
      "1 change was not applied: not in the reviewed plan. Plan again, review and apply them.",
    ]);
    const results = { ...account.results!, counts: { applied: 1, failed: 0, skipped: 1, unchanged: 0 } };
    const markdown = github({ ...outcome, accounts: [{ ...account, results, exitCode: 4 }], exitCode: 4 });
    expect(markdown.summary).toContain("1 change was not applied: not in the reviewed plan of pull request #7.");
    expect(markdown.failure).toBe("1 change not applied: not in the reviewed plan of pull request #7");
    expect(markdown.details?.title).toBe("The plan that was applied");
  });

  it("shows a plan with its changes in both, the counts first", () => {
    const { review: _review, results: _results, ...planOnly } = account;
    const planned: Outcome = { command: "plan", warnings: [], accounts: [{ ...planOnly, skipped: [], exitCode: 0 }], exitCode: 0 };
    const text = terminal(planned);
    const markdown = github({ ...planned });
    expect(text.summary).toContain("new.example.com");
    expect(markdown.summary).toContain("| Create | Update | Delete | Unchanged | Unmanaged |");
    expect(markdown.details).toMatchObject({ title: "Show the plan (3 changes)", body: expect.stringContaining("new.example.com") });
  });
});
