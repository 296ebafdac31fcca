import { describe, expect, it } from "vitest";
import { liveWebsite } from "../../test/helpers/live-website.ts";
import type { FileUpdate } from "../adopt/update-files.ts";
import { DEFAULT_POLICY } from "../model/policy.ts";
import { plan } from "../plan/plan.ts";
import type { AccountRun, ApplyReport } from "../run/types.ts";
import { type AccountSections, accountsSections } from "./outcome-accounts.ts";
import type { Sections } from "./sections.ts";

const planned = plan(
  { policy: DEFAULT_POLICY, websites: [{ domain: "new.example.com", state: "present" }] },
  { websites: [liveWebsite(1, "old.example.com")] },
  { configFile: "sitesync.yaml", configDigest: "d", target: { websites: "https://eu.example" } },
);
const run = (name: string, over: Partial<AccountRun> = {}): AccountRun => ({
  name,
  target: { websites: `https://${name || "one"}.example` },
  keys: { apiKeyEnv: "K", projectsApiKeyEnv: "P" },
  skipped: [],
  exitCode: 0,
  ...over,
});
const sections = (summary: string, over: Partial<Sections> = {}): Sections => ({ summary, notes: [], ...over });
const applied: ApplyReport = { items: [], counts: { applied: 2, failed: 1, skipped: 0, unchanged: 0 } };
const file = (source: string, result: FileUpdate["result"]): FileUpdate => ({ file: "sitesync.yaml", source, result });
const rewritten = (text: string): FileUpdate["result"] => ({
  ok: true,
  text,
  diff: "",
  summary: { updated: [], added: [], removed: [], restored: [], unmanaged: [], projectChanges: 0 },
});

describe("accountsSections: one account or many, one shape (DESIGN §1)", () => {
  it("shows a config without accounts: as its one account's sections, with no heading", () => {
    const own = sections("Plan: 1 to create\n", { notes: ["a note"], failure: "why" });
    expect(accountsSections([{ run: run(""), sections: own }], "text")).toBe(own);
  });

  it("heads each named account with the address it read, then sums the accounts up in one line", () => {
    const accounts: AccountSections = [
      { run: run("eu", { plan: planned }), sections: sections("Plan: eu\n") },
      { run: run("us", { results: applied }), sections: sections("Applied: us\n") },
    ];
    expect(accountsSections(accounts, "text").summary).toBe(
      "── account eu (https://eu.example) ──\n\nPlan: eu\n\n── account us (https://us.example) ──\n\nApplied: us\n\n" +
        "Accounts: eu: 1 to create, 0 to update, 0 to delete, 0 unchanged, 1 unmanaged; us: 2 applied, 1 failed, 0 skipped.\n",
    );
    expect(accountsSections(accounts, "markdown").summary).toContain("## Account eu (https://eu.example)\n\nPlan: eu");
    expect(accountsSections(accounts, "markdown").summary).toMatch(/\*\*Accounts:\*\* eu: .*; us: 2 applied, 1 failed, 0 skipped\.\n$/);
  });

  it("puts no heading over an account with nothing to show, and says where its error is", () => {
    const accounts: AccountSections = [
      { run: run("eu", { error: new Error("x") }), sections: sections("", { notes: ["error: x"], failure: "x" }) },
      { run: run("us", { plan: planned }), sections: sections("Plan: us\n") },
    ];
    const text = accountsSections(accounts, "text");
    expect(text.summary).not.toContain("account eu");
    expect(text.summary).toContain("Accounts: eu: failed (error below); us: ");
    expect(accountsSections(accounts, "markdown").summary).toContain("eu: failed (see its error)");
  });

  it("marks each note with its account, joins the failures and gathers the plans", () => {
    const accounts: AccountSections = [
      {
        run: run("eu"),
        sections: sections("s\n", { notes: ["warning: w"], failure: "refused", details: { title: "Plan", body: "eu plan" } }),
      },
      { run: run("us"), sections: sections("s\n", { notes: ["note: n"], failure: "failed", details: { title: "Plan", body: "us plan" } }) },
    ];
    const all = accountsSections(accounts, "markdown");
    expect(all.notes).toEqual(["[eu] warning: w", "[us] note: n"]);
    expect(all.failure).toBe("eu: refused; us: failed");
    expect(all.details).toEqual({ title: "Show the plans of 2 accounts", body: "#### eu: Plan\n\neu plan\n\n#### us: Plan\n\nus plan" });
  });

  it("sums up a refused plan, an adopt and an account with nothing to do", () => {
    const refused = { ...planned, refusals: [{ code: "max-deletes" as const, websites: 9, projects: 0, limit: 5, partial: false }] };
    const adopted = (files: FileUpdate[]) => ({ files, unmanaged: [], projectChanges: 0, written: [] });
    const verdicts = (over: Partial<AccountRun>) =>
      accountsSections(
        [
          { run: run("eu", over), sections: sections("") },
          { run: run("us"), sections: sections("") },
        ],
        "text",
      ).summary;
    expect(verdicts({ plan: refused })).toBe("Accounts: eu: refused; us: nothing to do.\n");
    expect(verdicts({ adopted: adopted([file("a", rewritten("a"))]) })).toContain("eu: already matches;");
    expect(verdicts({ adopted: adopted([file("a", rewritten("b")), file("c", rewritten("d"))]) })).toContain("eu: changes in 2 files;");
    expect(verdicts({ adopted: adopted([file("a", { ok: false, diagnostics: [] })]) })).toContain("eu: refused, nothing written;");
  });
});
