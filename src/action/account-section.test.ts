import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_POLICY } from "../model/policy.ts";
import { plan } from "../plan/plan.ts";
import { createRunRedactor } from "../run/run-redactor.ts";
import { accountSection } from "./account-section.ts";
import { sectionBudget, sectionOf, withSection } from "./comment-sections.ts";
import { markerFor, size } from "./compose.ts";
import { decodeReviewedBlock } from "./reviewed-block.ts";
import type { AccountReport, RunContext } from "./run-context.ts";

const HEAD = "0123456789abcdef0123456789abcdef01234567";
const SECRET = "Pa55word-of-the-eu-account-0000";
const MARKER = markerFor("sitesync.yaml");

function context(): RunContext {
  const redactor = createRunRedactor();
  redactor.add([SECRET]);
  return {
    inputs: { command: "plan", account: "eu" } as RunContext["inputs"],
    event: { runUrl: "https://github.example/acme/sites/actions/runs/1" } as RunContext["event"],
    configLabel: "sitesync.yaml",
    redactor,
    env: {},
  };
}

/** A plan run of `websites` creates: counts first, one row per website holding the secret in the details. */
function outcome(websites: number, _fleet: string[], name = (i: number) => `shop-${i}.example.com`): Omit<AccountReport, "account"> {
  const domains = Array.from({ length: websites }, (_, i) => name(i));
  const made = plan(
    { websites: domains.map((domain) => ({ domain, state: "present" as const })), policy: DEFAULT_POLICY },
    { websites: [] },
    { configFile: "sitesync.yaml", configDigest: "c0nf19", target: { websites: "https://analytics.example.com" } },
  );
  const rows = domains.map((domain) => `| ${domain} | password | ${SECRET} |`);
  return {
    report: {
      summary: `### sitesync plan for sitesync.yaml\n\n| Create |\n| ---: |\n| ${websites} |`,
      details: { title: "Show the plan", body: ["| Website | Field | Value |", "| --- | --- | --- |", ...rows].join("\n") },
      notes: [],
      exitCode: 0,
    },
    plan: made,
  };
}

/** The section of `account` in a plan comment of a fleet of `n` accounts. */
function sectionFor(own: Omit<AccountReport, "account">, account: string, n: number): string {
  return accountSection(context(), { ...own, account }, { marker: MARKER, headSha: HEAD, fleet: fleet(n), reviewed: true });
}

const fleet = (n: number) => ["eu", ...Array.from({ length: n - 1 }, (_, i) => `acct${i}`)];

describe("accountSection", () => {
  it("keeps within its share for any fleet, counts first, never a secret nor part of one", () => {
    for (const n of [2, 6, 40, 100]) {
      const text = sectionFor(outcome(800, fleet(n)), "eu", n);
      expect(size(text), `${n} accounts`).toBeLessThanOrEqual(sectionBudget(MARKER, n));
      expect(text.startsWith("<!-- sitesync-account: eu -->\n## Account eu\n### sitesync plan for sitesync.yaml"), `${n}`).toBe(true);
      expect(text).not.toContain(SECRET.slice(0, 12));
      if (n <= 40) expect(text, `${n} accounts`).toContain("| 800 |");
    }
  });

  it("gives two accounts half the comment each: a plan of 25,000 characters is not cut", () => {
    const text = sectionFor(outcome(500, fleet(2)), "eu", 2);
    expect(size(text)).toBeGreaterThan(25_000);
    expect(text).toContain("| shop-499.example.com | password | (sensitive) |");
    expect(text).not.toContain("too long");
  });

  it("carries the account's reviewed plan whole and cuts the details around it, pointing to its leg's job summary", () => {
    const text = sectionFor(outcome(400, fleet(6)), "eu", 6);
    expect(text).toMatch(
      /This account's plan is too long for its share of the comment: \d+ of its 402 lines are shown\. The whole plan is in the job summary of the eu leg of \[the workflow run\]/,
    );
    const reviewed = decodeReviewedBlock(text, { headSha: HEAD, config: "sitesync.yaml#eu" });
    expect("plan" in reviewed && reviewed.plan.changes).toHaveLength(400);
  });

  it("says so when the reviewed plan does not fit its share, and leaves the merge a line naming the cause", () => {
    // Domains that do not compress into one another, as real clients' do not.
    const hashed = (i: number) => `${createHash("sha256").update(String(i)).digest("hex").slice(0, 16)}.example.com`;
    const text = sectionFor(outcome(2000, fleet(6), hashed), "eu", 6);
    expect(text).toContain(
      "> [!WARNING]\n> The reviewed plan is too large to carry: the merge will apply nothing unless run with apply-unreviewed.",
    );
    expect(decodeReviewedBlock(text, { headSha: HEAD, config: "sitesync.yaml#eu" })).toMatchObject({ code: "too-large" });
  });

  it("written when the fleet had two accounts and cut by a leg of six, still carries its reviewed plan for the merge", () => {
    const others = ["acct1", "acct2", "acct3", "acct4"].map((name) => sectionFor(outcome(500, fleet(6)), name, 6));
    const before = `${MARKER}\n${[sectionFor(outcome(500, fleet(2)), "eu", 2), ...others].join("\n\n")}\n`;
    const own = sectionFor(outcome(500, fleet(6)), "acct0", 6);
    const body = withSection(MARKER, [before], "acct0", own, fleet(6));
    for (const [i, name] of ["acct1", "acct2", "acct3", "acct4"].entries()) expect(sectionOf(body, name)).toBe(others[i]);
    const eu = sectionOf(body, "eu") ?? "";
    expect(size(eu)).toBeLessThanOrEqual(sectionBudget(MARKER, 6));
    expect(eu).toContain("This account's section was shortened to fit the comment");
    const reviewed = decodeReviewedBlock(eu, { headSha: HEAD, config: "sitesync.yaml#eu" });
    expect("plan" in reviewed && reviewed.plan.changes).toHaveLength(500);
  });
});
