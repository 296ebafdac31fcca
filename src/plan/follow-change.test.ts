import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { liveWebsite as site } from "../../test/helpers/live-website.ts";
import type { ConfigChange, TouchedWebsite } from "../model/config-change.ts";
import { DEFAULT_POLICY, type Policy } from "../model/policy.ts";
import type { DesiredProject, LiveProject } from "../model/project.ts";
import type { DesiredWebsite, LiveWebsite } from "../model/website.ts";
import type { WebsiteFields } from "../model/website-fields.ts";
import { render } from "../render/index.ts";
import type { PlanChange } from "./follow-change.ts";
import { plan } from "./plan.ts";
import type { Plan, WebsiteUpdate } from "./types.ts";

const schema = JSON.parse(readFileSync(new URL("../../schemas/plan.schema.json", import.meta.url), "utf8"));
const validatePlan = new Ajv2020({ allErrors: true }).compile(schema);

const want = (domain: string, fields: WebsiteFields & { passwordVersion?: string } = {}): DesiredWebsite => ({
  domain,
  state: "present",
  ...fields,
});
const gone = (domain: string): DesiredWebsite => ({ domain, state: "absent" });
const touched = (domain: string, touch: TouchedWebsite["touch"], send: TouchedWebsite["send"] = []): TouchedWebsite => ({
  domain,
  touch,
  edited: [],
  send,
});
const change = (websites: TouchedWebsite[], projects: ConfigChange["projects"] = []): ConfigChange => ({
  ref: "HEAD~1",
  websites,
  projects,
  fullRead: [],
});
const scoped = (c: ConfigChange): PlanChange => ({ known: true, change: c, read: "scoped" });

interface Case {
  websites: DesiredWebsite[];
  live: LiveWebsite[];
  policy?: Partial<Policy>;
  projects?: DesiredProject[];
  liveProjects?: LiveProject[];
  change?: PlanChange;
  syncWriteOnly?: boolean;
}

function run(c: Case): Plan {
  const desired = { websites: c.websites, policy: { ...DEFAULT_POLICY, ...c.policy }, ...(c.projects ? { projects: c.projects } : {}) };
  const live = { websites: c.live, ...(c.liveProjects ? { projects: c.liveProjects } : {}) };
  const options = { configFile: "sitesync.yaml", configDigest: "d1g35t", syncWriteOnly: c.syncWriteOnly ?? false };
  const result = plan(desired, live, { ...options, ...(c.change ? { change: c.change } : {}) });
  expect(validatePlan(result), JSON.stringify(validatePlan.errors, null, 2)).toBe(true);
  return result;
}

const updates = (p: Plan) => p.changes.filter((c): c is WebsiteUpdate => c.action === "update");
const actions = (p: Plan) => p.changes.map((c) => `${c.action} ${c.kind === "website" ? c.domain : c.project}`);

const SHOP = want("shop.example.com", {
  privacy: 2,
  password: "s3cret-pass",
  passwordVersion: "2",
  exclude_params: ["utm_source", "fbclid"],
});
const LIVE_SHOP = site(7, "shop.example.com", { privacy: 2, password: true });

describe("plan with a change: write-only edits are sent (DESIGN §3, plans that follow the change)", () => {
  it("without a change, sends nothing it cannot compare and counts what it cannot verify", () => {
    const p = run({ websites: [SHOP], live: [LIVE_SHOP] });
    expect(p.changes).toEqual([]);
    expect(p.unverifiable).toEqual([
      { field: "password", count: 1 },
      { field: "exclude_params", count: 1 },
    ]);
    expect(p.since).toBeUndefined();
  });

  it("sends exclude_params edited and a password rotated since the base, with the reason and never the password", () => {
    const c = change([
      touched("shop.example.com", "changed", [
        { field: "password", edit: "rotated" },
        { field: "exclude_params", edit: "edited" },
      ]),
    ]);
    const p = run({ websites: [SHOP], live: [LIVE_SHOP], change: { known: true, change: c, read: "full", because: ["full-flag"] } });
    expect(updates(p)[0]?.fields).toEqual([
      {
        field: "password",
        before: null,
        after: "(sensitive)",
        sensitive: true,
        writeOnly: true,
        changedSince: { ref: "HEAD~1", edit: "rotated" },
      },
      {
        field: "exclude_params",
        before: null,
        after: ["utm_source", "fbclid"],
        writeOnly: true,
        changedSince: { ref: "HEAD~1", edit: "edited" },
      },
    ]);
    expect(p.unverifiable).toEqual([]);
    expect(p.since).toEqual({ known: true, ref: "HEAD~1", read: "full", because: ["full-flag"] });
    for (const output of [JSON.stringify(p), render(p, "text"), render(p, "json"), render(p, "markdown")]) {
      expect(output).not.toContain("s3cret-pass");
    }
  });

  it("keeps an observable reason first: a site with no password stored gets it as no-password", () => {
    const c = change([touched("shop.example.com", "changed", [{ field: "password", edit: "edited" }])]);
    const p = run({ websites: [SHOP], live: [{ ...LIVE_SHOP, password: false }], change: scoped(c) });
    expect(updates(p)[0]?.fields.map((f) => [f.field, f.sentBecause, f.changedSince])).toEqual([["password", "no-password", undefined]]);
  });

  it("plans and flags a rotation of a password the config does not set: an update that sends nothing, and needs one", () => {
    const c = change([touched("shop.example.com", "changed", [{ field: "password", edit: "rotated" }])]);
    const p = run({ websites: [want("shop.example.com", { privacy: 2, passwordVersion: "3" })], live: [LIVE_SHOP], change: scoped(c) });
    expect(updates(p)).toEqual([
      expect.objectContaining({ domain: "shop.example.com", fields: [], needs: { secret: "password", because: "rotated", ref: "HEAD~1" } }),
    ]);
    expect(p.warnings).toEqual([]);
  });

  it("knows no change: reads in full, sends nothing, counts the unverifiable and records why", () => {
    const p = run({ websites: [SHOP], live: [LIVE_SHOP], change: { known: false, ref: "HEAD~1", reason: "base-missing" } });
    expect(p.changes).toEqual([]);
    expect(p.unverifiable).toHaveLength(2);
    expect(p.since).toEqual({ known: false, ref: "HEAD~1", reason: "base-missing" });
    // An included file at fault is named beside the reason (the schema checks it in `run`).
    const file = run({
      websites: [SHOP],
      live: [LIVE_SHOP],
      change: { known: false, ref: "HEAD~1", reason: "base-invalid", file: "clients/b.yaml" },
    });
    expect(file.since).toEqual({ known: false, ref: "HEAD~1", reason: "base-invalid", file: "clients/b.yaml" });
  });
});

describe("a scoped plan (DESIGN §3)", () => {
  const listed = [want("a.example.com", { email: 1 }), want("b.example.com", { email: 1 }), want("new.example.com")];

  it("plans only the touched websites, and says what it did not evaluate", () => {
    // The lookups found a.example.com only; b.example.com drifted, but the change does not touch it.
    const c = change([touched("a.example.com", "changed"), touched("new.example.com", "added")]);
    const p = run({ websites: listed, live: [site(1, "a.example.com"), site(2, "b.example.com")], change: scoped(c) });
    expect(actions(p)).toEqual(["create new.example.com", "update a.example.com"]);
    expect(p.summary).toMatchObject({ create: 1, update: 1, unchanged: 0, unmanaged: 0 });
    expect(p.since).toEqual({
      known: true,
      ref: "HEAD~1",
      read: "scoped",
      websites: ["a.example.com", "new.example.com"],
      projects: [],
      notEvaluated: ["untouched-drift", "unlisted-live"],
    });
  });

  it("under prune deletes only touched websites removed from the file, never an untouched unlisted one", () => {
    const c = change([touched("removed.example.com", "removed"), touched("old.example.com", "tombstoned")]);
    const live = [site(1, "a.example.com"), site(2, "removed.example.com"), site(3, "old.example.com"), site(4, "stranger.example.com")];
    const p = run({ websites: [...listed, gone("old.example.com")], live, policy: { prune: true }, change: scoped(c) });
    expect(p.changes.map((x) => x.action === "delete" && x.kind === "website" && [x.domain, x.reason])).toEqual([
      ["old.example.com", "tombstone"],
      ["removed.example.com", "prune"],
    ]);
    // The file still lists websites to keep, touched or not: the empty-prune rail does not fire.
    expect(p.refusals).toEqual([]);
    const without = run({ websites: [...listed, gone("old.example.com")], live, policy: { prune: false }, change: scoped(c) });
    expect(actions(without)).toEqual(["delete old.example.com"]);
    expect(without.summary.unmanaged).toBe(1);
  });

  it("applies the rails to what it plans", () => {
    const removed = ["r1", "r2", "r3"].map((n) => `${n}.example.com`);
    const c = change(removed.map((d) => touched(d, "removed")));
    const live = removed.map((d, i) => site(i + 1, d));
    const p = run({ websites: listed, live, policy: { prune: true, maxDeletes: 2 }, change: scoped(c) });
    expect(p.refusals.map((r) => r.code)).toEqual(["max-deletes"]);
  });

  it("scopes projects the same way", () => {
    const c = change([], [{ project: "gone.example.org", touch: "tombstoned" }]);
    const liveProjects = ["gone.example.org", "untouched.example.org"].map((project) => ({
      project,
      reports: 1,
      result: 50,
      created_at: "x",
    }));
    const p = run({
      websites: [],
      live: [],
      policy: { prune: true },
      projects: [
        { project: "kept.example.org", state: "present" },
        { project: "gone.example.org", state: "absent" },
      ],
      liveProjects,
      change: scoped(c),
    });
    expect(actions(p)).toEqual(["delete gone.example.org"]);
    expect(p.since).toMatchObject({ read: "scoped", projects: ["gone.example.org"] });
  });
});

describe("a re-plan after apply says what it is (DESIGN §3): re-sends, also to what the change created", () => {
  const HEAD = { commit: "1a2b3c4d5e6f".padEnd(40, "0"), time: "2025-03-01T10:00:00+01:00" };
  // The commit's own second is no evidence: a write then cannot be told from one just before it.
  const BEFORE = "2025-03-01T09:00:00.900000Z";
  const AT = "2025-03-01T09:00:01.000000Z";
  const rotated = touched("shop.example.com", "changed", [{ field: "password", edit: "rotated" }]);
  const added = touched("new.example.com", "added", [{ field: "password", edit: "edited" }]);
  const withHead = (websites: TouchedWebsite[], head: ConfigChange["head"] | null = HEAD) =>
    scoped({ ...change(websites), ...(head ? { head } : {}) });
  const NEW = want("new.example.com", { privacy: 2, password: "n3w-secret" });

  it("sends a change's edits as first sends while the website was not written since the commit the config is", () => {
    const p = run({ websites: [SHOP, NEW], live: [{ ...LIVE_SHOP, updated_at: BEFORE }], change: withHead([added, rotated]) });
    expect(actions(p)).toEqual(["create new.example.com", "update shop.example.com"]);
    expect(updates(p)[0]?.fields[0]?.changedSince).toEqual({ ref: "HEAD~1", edit: "rotated" });
  });

  it("labels a send to a website written since that commit a re-send, in the plan and its words", () => {
    const p = run({ websites: [SHOP], live: [{ ...LIVE_SHOP, updated_at: AT }], change: withHead([rotated]) });
    expect(updates(p)[0]?.fields).toEqual([
      {
        field: "password",
        before: null,
        after: "(sensitive)",
        sensitive: true,
        writeOnly: true,
        changedSince: { ref: "HEAD~1", edit: "rotated", resend: { commit: HEAD.commit } },
      },
    ]);
    const text = render(p, "text");
    expect(text).toContain(
      "password: (sensitive), re-sent: rotated since HEAD~1 and sent already (the website was written since 1a2b3c4d5e6f); --changed-since 1a2b3c4d5e6f stops re-sending",
    );
    expect(text).toContain(
      "1 update only re-sends what applying the change since HEAD~1 sent already (its website was written since 1a2b3c4d5e6f, the commit the config is): --detailed-exitcode counts it as no change; --changed-since 1a2b3c4d5e6f stops re-sending.",
    );
    expect(render(p, "markdown")).toContain("> [!NOTE]\n> 1 update only re-sends what applying the change since HEAD~1 sent already");
  });

  it("re-sends the password of a website the change adds, created since the commit: by its apply or by someone else", () => {
    const live = [site(9, "new.example.com", { privacy: 2, password: true, created_at: AT, updated_at: AT })];
    const p = run({ websites: [NEW], live, change: withHead([added]) });
    expect(updates(p)[0]?.fields[0]?.changedSince).toEqual({ ref: "HEAD~1", edit: "edited", resend: { commit: HEAD.commit } });
    // Created before the commit the config is, the website existed when the file took it in: a first send.
    const older = run({ websites: [NEW], live: [{ ...live[0]!, created_at: BEFORE, updated_at: BEFORE }], change: withHead([added]) });
    expect(updates(older)[0]?.fields[0]?.changedSince).toEqual({ ref: "HEAD~1", edit: "edited" });
  });

  it("sends as before when the config now is not a commit (edited in the working tree): no evidence, no re-send", () => {
    const p = run({ websites: [SHOP], live: [{ ...LIVE_SHOP, updated_at: AT }], change: withHead([rotated], null) });
    expect(updates(p)[0]?.fields[0]?.changedSince).toEqual({ ref: "HEAD~1", edit: "rotated" });
  });
});
