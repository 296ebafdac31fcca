import { describe, expect, it } from "vitest";
import { liveWebsite as site } from "../../test/helpers/live-website.ts";
import { DEFAULT_POLICY, type Policy } from "../model/policy.ts";
import type { DesiredProject, LiveProject } from "../model/project.ts";
import type { DesiredWebsite, LiveWebsite } from "../model/website.ts";
import type { WebsiteFields } from "../model/website-fields.ts";
import { itemNote } from "../render/item-note.ts";
import { planDataProblem } from "../run/plan-file.ts";
import { planHash, websiteFingerprint } from "./fingerprint.ts";
import { confirmSavedPlan, type Intersection, intersectReviewed, type NotReviewed } from "./intersect.ts";
import { plan } from "./plan.ts";
import type { Change, Plan } from "./types.ts";

/** How every output words a change that is not applied (render/item-note.ts), from the intersection's data. */
function notReviewedNote(entry: NotReviewed): string | undefined {
  const detail = { why: entry.reason, ...(entry.reviewed ? { reviewedAction: entry.reviewed.action } : {}) };
  return itemNote({ change: entry.change, status: "skipped", reason: "not-reviewed", detail });
}

const want = (domain: string, fields: WebsiteFields = {}): DesiredWebsite => ({ domain, state: "present", ...fields });
const gone = (domain: string): DesiredWebsite => ({ domain, state: "absent" });

interface State {
  websites: DesiredWebsite[];
  live: LiveWebsite[];
  policy?: Partial<Policy>;
  projects?: DesiredProject[];
  liveProjects?: LiveProject[];
  digest?: string;
  websitesUrl?: string;
  projectsUrl?: string;
}

/** A plan made by the real planner, as the plan job and the merge job make it. */
function planOf(s: State): Plan {
  return plan(
    {
      websites: s.websites,
      policy: { ...DEFAULT_POLICY, ...s.policy },
      ...(s.projects ? { projects: s.projects } : {}),
    },
    { websites: s.live, ...(s.liveProjects ? { projects: s.liveProjects } : {}) },
    {
      configFile: "sitesync.yaml",
      configDigest: s.digest ?? "config-at-review",
      target: { websites: s.websitesUrl ?? "https://a.example", ...(s.projectsUrl ? { projects: s.projectsUrl } : {}) },
    },
  );
}

/** `[action, name]` of each change, the way a reader of the report sees them. */
const names = (changes: readonly Change[]) => changes.map((c) => `${c.action} ${c.kind === "website" ? c.domain : c.project}`);

/** What the merge job applies and reports. */
function outcome(x: Intersection) {
  return {
    applied: names(x.plan.changes),
    notReviewed: x.notReviewed.map((e) => `${names([e.change])[0]}: ${e.reason}`),
    noLongerNeeded: names(x.noLongerNeeded),
  };
}

/** Re-hash a hand-edited plan, as a forger would. */
function rehash(p: Plan): Plan {
  const { hash: _old, ...rest } = p;
  return { ...p, hash: planHash(rest) };
}

const live = [site(1, "a.example.com"), site(2, "b.example.com"), site(3, "c.example.com")];
const config = [want("a.example.com", { privacy: 1 }), want("b.example.com", { email: 1 }), want("c.example.com")];

describe("intersectReviewed: the merge applies what was reviewed", () => {
  it("applies every change when nothing moved between review and merge, as the fresh plan itself", () => {
    const reviewed = planOf({ websites: [...config, want("new.example.com", { favorite: true })], live });
    const fresh = planOf({ websites: [...config, want("new.example.com", { favorite: true })], live });
    const x = intersectReviewed(reviewed, fresh);
    expect(outcome(x)).toEqual({
      applied: ["create new.example.com", "update a.example.com", "update b.example.com"],
      notReviewed: [],
      noLongerNeeded: [],
    });
    expect(x.plan).toEqual(fresh);
  });

  it("does not apply a change to a site edited in the web UI after the review (its fingerprint moved)", () => {
    const reviewed = planOf({ websites: config, live });
    const edited = live.map((w) => (w.id === 1 ? { ...w, exclude_ips: ["203.0.113.7"], updated_at: "2025-06-01T00:00:00.000000Z" } : w));
    const x = intersectReviewed(reviewed, planOf({ websites: config, live: edited }));
    expect(outcome(x)).toEqual({
      applied: ["update b.example.com"],
      notReviewed: ["update a.example.com: live-changed"],
      noLongerNeeded: [],
    });
    expect(notReviewedNote(x.notReviewed[0]!)).toBe("not applied: a.example.com (id 1) changed in the account since the review");
  });

  it("does not apply a site that a second pull request added after the review", () => {
    const reviewed = planOf({ websites: config, live });
    const x = intersectReviewed(reviewed, planOf({ websites: [...config, want("second-pr.example.com")], live, digest: "after-pr-2" }));
    expect(outcome(x)).toEqual({
      applied: ["update a.example.com", "update b.example.com"],
      notReviewed: ["create second-pr.example.com: not-in-review"],
      noLongerNeeded: [],
    });
    expect(x.configChanged).toBe(true);
    expect(notReviewedNote(x.notReviewed[0]!)).toBe("not applied: not in the reviewed plan");
  });

  it("reports a reviewed change that someone already made as no longer needed, not as a failure", () => {
    const reviewed = planOf({ websites: config, live });
    const done = live.map((w) => (w.id === 2 ? { ...w, email: 1, updated_at: "2025-06-01T00:00:00.000000Z" } : w));
    const x = intersectReviewed(reviewed, planOf({ websites: config, live: done }));
    expect(outcome(x)).toEqual({ applied: ["update a.example.com"], notReviewed: [], noLongerNeeded: ["update b.example.com"] });
    expect(x.configChanged).toBe(false);
  });

  it("never applies a delete that a forged reviewed plan adds and the config does not call for", () => {
    const reviewed = planOf({ websites: config, live });
    const victim = live[2]!;
    const forged = rehash({
      ...reviewed,
      changes: [
        ...reviewed.changes,
        {
          kind: "website",
          action: "delete",
          domain: victim.domain,
          id: victim.id,
          reason: "prune",
          fingerprint: websiteFingerprint(victim),
        },
      ],
    });
    expect(planDataProblem(forged)).toBeUndefined();
    const x = intersectReviewed(forged, planOf({ websites: config, live }));
    expect(outcome(x)).toEqual({
      applied: ["update a.example.com", "update b.example.com"],
      notReviewed: [],
      noLongerNeeded: ["delete c.example.com"],
    });
  });

  it("does not apply an update whose values differ from the reviewed ones (the config changed since)", () => {
    const reviewed = planOf({ websites: config, live });
    const changed = [want("a.example.com", { privacy: 2, password: "s3cret-value" }), config[1]!, config[2]!];
    const x = intersectReviewed(reviewed, planOf({ websites: changed, live, digest: "after-edit" }));
    expect(outcome(x)).toEqual({
      applied: ["update b.example.com"],
      notReviewed: ["update a.example.com: different-fields"],
      noLongerNeeded: [],
    });
    expect(x.notReviewed[0]!.reviewed).toEqual(reviewed.changes[0]);
  });

  it("does not apply a delete where the review showed an update of the same site", () => {
    const reviewed = planOf({ websites: config, live });
    const x = intersectReviewed(reviewed, planOf({ websites: [gone("a.example.com"), config[1]!, config[2]!], live }));
    expect(outcome(x).notReviewed).toEqual(["delete a.example.com: different-action"]);
    expect(notReviewedNote(x.notReviewed[0]!)).toBe("not applied: the reviewed plan would update a.example.com (id 1)");
  });

  it("applies a reviewed delete whether prune or a tombstone now calls for it", () => {
    const reviewed = planOf({ websites: config.slice(0, 2), live, policy: { prune: true } });
    const x = intersectReviewed(reviewed, planOf({ websites: [...config.slice(0, 2), gone("c.example.com")], live }));
    expect(outcome(x).applied).toEqual(["update a.example.com", "update b.example.com", "delete c.example.com"]);
  });

  it("compares a password as the plan holds it: a reviewed password change still applies", () => {
    const withPassword = [want("a.example.com", { privacy: 2, password: "first-secret" })];
    const reviewed = planOf({ websites: withPassword, live: live.slice(0, 1) });
    const x = intersectReviewed(
      reviewed,
      planOf({ websites: [want("a.example.com", { privacy: 2, password: "first-secret" })], live: live.slice(0, 1) }),
    );
    expect(outcome(x).applied).toEqual(["update a.example.com"]);
    expect(JSON.stringify(x)).not.toContain("first-secret");
  });

  it("applies reviewed project deletes only while the project is as it was reviewed", () => {
    const projects = [{ project: "old.example.com", reports: 1, result: 50, created_at: "2024-01-04T18:37:00.000000Z" }];
    const state = { websites: [], live: [], projects: [{ project: "old.example.com", state: "absent" as const }], liveProjects: projects };
    const reviewed = planOf(state);
    expect(outcome(intersectReviewed(reviewed, planOf(state))).applied).toEqual(["delete old.example.com"]);
    const moved = intersectReviewed(reviewed, planOf({ ...state, liveProjects: [{ ...projects[0]!, reports: 2 }] }));
    expect(outcome(moved).notReviewed).toEqual(["delete old.example.com: live-changed"]);
  });

  it("approves nothing from a reviewed plan that a safety rail refused", () => {
    const reviewed = planOf({ websites: config.slice(0, 2), live, policy: { prune: true, maxDeletes: 0 } });
    expect(reviewed.refusals).not.toEqual([]);
    const x = intersectReviewed(reviewed, planOf({ websites: config, live }));
    expect(x.problem?.code).toBe("reviewed-refused");
    expect(outcome(x)).toEqual({
      applied: [],
      notReviewed: ["update a.example.com: review-unusable", "update b.example.com: review-unusable"],
      noLongerNeeded: [],
    });
  });

  it("approves nothing from a plan made against another account", () => {
    const reviewed = planOf({ websites: config, live, websitesUrl: "https://other.example" });
    const x = intersectReviewed(reviewed, planOf({ websites: config, live }));
    expect(x.problem).toMatchObject({ code: "other-account", api: "websites", planned: "https://other.example" });
    expect(x.plan.changes).toEqual([]);
  });

  it("approves nothing from a plan made against another projects account", () => {
    const reviewed = planOf({ websites: config, live, projectsUrl: "https://other-projects.example" });
    const x = intersectReviewed(reviewed, planOf({ websites: config, live, projectsUrl: "https://projects.example" }));
    expect(x.problem).toMatchObject({ code: "other-account", api: "projects", planned: "https://other-projects.example" });
    expect(x.plan.changes).toEqual([]);
  });

  it("returns a valid plan of only the intersected changes, with counts, estimate and hash to match", () => {
    const reviewed = planOf({ websites: config, live });
    const fresh = planOf({ websites: [...config, want("new.example.com", { favorite: true })], live });
    const x = intersectReviewed(reviewed, fresh);
    expect(planDataProblem(x.plan)).toBeUndefined();
    expect(x.plan.summary).toMatchObject({ create: 0, update: 2, delete: 0, unchanged: 1 });
    // The same run as the fresh plan's (its reads, at its rate), with only the writes applied.
    expect(x.plan.estimate).toEqual({ ...fresh.estimate, requests: 2 });
  });

  it("keeps the fresh plan's refusals, so a rail that refuses today's config still stops the run", () => {
    const reviewed = planOf({ websites: config, live });
    const fresh = planOf({ websites: [], live, policy: { prune: true } });
    const x = intersectReviewed(reviewed, fresh);
    expect(x.plan.refusals.map((r) => r.code)).toEqual(["empty-prune"]);
  });

  it("is deterministic: the same plans give the same result", () => {
    const reviewed = planOf({ websites: config, live });
    const fresh = planOf({ websites: [...config, want("z.example.com")], live });
    expect(JSON.stringify(intersectReviewed(reviewed, fresh))).toBe(JSON.stringify(intersectReviewed(reviewed, fresh)));
  });
});

describe("confirmSavedPlan: apply plan.json applies only what a fresh plan calls for", () => {
  it("refuses a delete added to the saved file and re-hashed, and says so", () => {
    const saved = planOf({ websites: config, live });
    const victim = live[2]!;
    const forged = rehash({
      ...saved,
      changes: [
        ...saved.changes,
        {
          kind: "website",
          action: "delete",
          domain: victim.domain,
          id: victim.id,
          reason: "tombstone",
          fingerprint: websiteFingerprint(victim),
        },
      ],
    });
    const check = confirmSavedPlan(forged, planOf({ websites: config, live }));
    expect(names(check.plan.changes)).toEqual(["update a.example.com", "update b.example.com"]);
    expect(check.refused).toEqual([{ change: forged.changes[2], why: "not-called-for" }]);
  });

  it("skips a saved change whose site moved since the plan as stale, and lists new differences apart", () => {
    const saved = planOf({ websites: config, live });
    const edited = live.map((w) => (w.id === 2 ? { ...w, favorite: true, updated_at: "2025-06-01T00:00:00.000000Z" } : w));
    const check = confirmSavedPlan(saved, planOf({ websites: [...config, want("d.example.com")], live: edited }));
    expect(names(check.plan.changes)).toEqual(["update a.example.com"]);
    expect(check.refused.map((r) => r.why)).toEqual(["live-changed"]);
    expect(names(check.notInSavedPlan)).toEqual(["create d.example.com"]);
  });

  it("refuses a saved update whose values were edited in the file", () => {
    const saved = planOf({ websites: config, live });
    const first = saved.changes[0]!;
    if (first.action !== "update") throw new Error("expected an update");
    const edited = rehash({
      ...saved,
      changes: [{ ...first, fields: [{ field: "privacy", before: 0, after: 2 }] }, ...saved.changes.slice(1)],
    });
    const check = confirmSavedPlan(edited, planOf({ websites: config, live }));
    expect(names(check.plan.changes)).toEqual(["update b.example.com"]);
    expect(check.refused.map((r) => r.why)).toEqual(["different-fields"]);
    const item = {
      change: check.refused[0]!.change,
      status: "skipped" as const,
      reason: "refused" as const,
      detail: { why: "different-fields" as const },
    };
    expect(itemNote(item)).toBe("refused: a fresh plan of the current config sends other fields or values to a.example.com (id 1)");
    // Reported as it was saved (what the reader approved), not as the fresh plan has it.
    expect(check.refused.map((r) => r.change)).toEqual([edited.changes[0]]);
  });
});

describe("a re-send (DESIGN §3): why a value is sent, not what", () => {
  it("is applied when the review saw the same send as a first send", () => {
    const desired = [want("shop.example.com", { privacy: 2, password: "s3cret-pass" })];
    const live = [site(7, "shop.example.com", { privacy: 2, password: true })];
    const base = { websites: desired, policy: DEFAULT_POLICY };
    const options = { configFile: "sitesync.yaml", configDigest: "d", target: { websites: "https://a.example" } };
    const touched = [
      {
        domain: "shop.example.com",
        touch: "changed" as const,
        edited: [],
        send: [{ field: "password" as const, edit: "rotated" as const }],
      },
    ];
    const change = (head?: { commit: string; time: string }) => ({
      known: true as const,
      read: "scoped" as const,
      change: { ref: "HEAD~1", websites: touched, projects: [], fullRead: [], ...(head ? { head } : {}) },
    });
    const reviewed = plan(base, { websites: live }, { ...options, change: change() });
    const head = { commit: "f".repeat(40), time: "2020-01-01T00:00:00Z" };
    const fresh = plan(base, { websites: live }, { ...options, change: change(head) });
    expect(fresh.changes[0]).toMatchObject({ fields: [{ changedSince: { resend: { commit: head.commit } } }] });
    expect(outcome(intersectReviewed(reviewed, fresh))).toEqual({
      applied: ["update shop.example.com"],
      notReviewed: [],
      noLongerNeeded: [],
    });
  });
});
