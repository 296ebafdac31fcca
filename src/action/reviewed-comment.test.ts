import { describe, expect, it } from "vitest";
import { DEFAULT_POLICY } from "../model/policy.ts";
import { plan } from "../plan/plan.ts";
import type { Plan } from "../plan/types.ts";
import { decodeReviewedBlock } from "./reviewed-block.ts";
import { carryReviewedPlan } from "./reviewed-comment.ts";
import type { Report } from "./run-context.ts";

const HEAD = "0123456789abcdef0123456789abcdef01234567";
const report: Report = { summary: "### sitesync plan for sitesync.yaml", exitCode: 0, notes: [] };
const identity = (text: string) => text;

function planOf(domains: string[], maxDeletes = 5): Plan {
  const websites = domains.map((domain) => ({ domain, state: "present" as const }));
  return plan(
    { websites, policy: { ...DEFAULT_POLICY, maxDeletes } },
    { websites: [] },
    { configFile: "sitesync.yaml", configDigest: "c0nf19", target: { websites: "https://analytics.example.com" } },
  );
}

describe("carryReviewedPlan", () => {
  it("appends a block that reads back as the plan, for the head commit and config", () => {
    const p = planOf(["a.example.com", "b.example.com"]);
    const { report: shown, block } = carryReviewedPlan(report, p, { headSha: HEAD, config: "sitesync.yaml" }, identity);
    expect(shown).toBe(report);
    expect(decodeReviewedBlock(`marker\n${block}`, { headSha: HEAD, config: "sitesync.yaml" })).toEqual({
      plan: p,
      headSha: HEAD,
      config: "sitesync.yaml",
    });
  });

  it("says visibly when the plan is too large to carry, carries nothing, and leaves the merge a line that names the cause", () => {
    const { report: shown, block } = carryReviewedPlan(
      report,
      planOf(["a.example.com"]),
      { headSha: HEAD, config: "sitesync.yaml" },
      identity,
      100,
    );
    expect(block).toBe("\n<!-- sitesync-reviewed-omitted too-large -->\n");
    expect(shown.summary).toContain(
      "> [!WARNING]\n> The reviewed plan is too large to carry: the merge will apply nothing unless run with apply-unreviewed.",
    );
    expect(decodeReviewedBlock(`marker\n${shown.summary}${block}`)).toEqual({
      code: "too-large",
      problem:
        "The plan was too large to carry for review in the pull-request comment, so nothing of it was reviewed. " +
        "Split the change into smaller pull requests (or narrow it with the target input), or apply it by hand with apply-unreviewed: true.",
    });
  });

  it("carries nothing that masking would damage, nor a plan without its head commit, and says so", () => {
    const damaging = carryReviewedPlan(report, planOf(["a.example.com"]), { headSha: HEAD, config: "sitesync.yaml" }, (t) =>
      t.replaceAll("A", "***"),
    );
    expect(damaging.block).toBe("");
    expect(damaging.report.summary).toContain(
      "cannot be carried in this comment: the merge will apply nothing unless run with apply-unreviewed",
    );
    const headless = carryReviewedPlan(report, planOf(["a.example.com"]), { headSha: undefined, config: "sitesync.yaml" }, identity);
    expect(headless.block).toBe("");
    expect(headless.report.summary).toContain("head commit is unknown");
  });
});
