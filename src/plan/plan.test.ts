import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { liveWebsite } from "../../test/helpers/live-website.ts";
import { decodeWebsite } from "../api/decode.ts";
import { DEFAULT_POLICY, type Policy } from "../model/policy.ts";
import type { DesiredProject, LiveProject } from "../model/project.ts";
import type { Desired } from "../model/state.ts";
import type { DesiredWebsite, LiveWebsite } from "../model/website.ts";
import type { WebsiteFields } from "../model/website-fields.ts";
import { render } from "../render/index.ts";
import { refusalWords } from "../render/refusal-words.ts";
import { planHash, websiteFingerprint } from "./fingerprint.ts";
import { type PlanOptions, plan } from "./plan.ts";
import { type Change, type Plan, SENSITIVE, type WebsiteCreate, type WebsiteUpdate } from "./types.ts";

const schema = JSON.parse(readFileSync(new URL("../../schemas/plan.schema.json", import.meta.url), "utf8"));
const validatePlan = new Ajv2020({ allErrors: true }).compile(schema);

const SRC = (line: number) => ({ file: "sitesync.yaml", line, column: 5 });

const site = liveWebsite;
const want = (domain: string, fields: WebsiteFields = {}, line?: number): DesiredWebsite => ({
  domain,
  state: "present",
  ...fields,
  ...(line === undefined ? {} : { source: SRC(line) }),
});
const gone = (domain: string, line?: number): DesiredWebsite => ({
  domain,
  state: "absent",
  ...(line === undefined ? {} : { source: SRC(line) }),
});
const project = (name: string, reports = 1): LiveProject => ({
  project: name,
  reports,
  result: 50 * reports,
  created_at: "2024-01-04T18:37:00.000000Z",
});
const keep = (name: string): DesiredProject => ({ project: name, state: "present" });
const drop = (name: string): DesiredProject => ({ project: name, state: "absent" });

interface Case {
  websites?: DesiredWebsite[];
  projects?: DesiredProject[];
  policy?: Partial<Policy>;
  live?: LiveWebsite[];
  liveProjects?: LiveProject[];
  options?: Partial<PlanOptions>;
}

/** Plans a case and checks the result against schemas/plan.schema.json, so every plan of these tests is valid. */
function run(c: Case): Plan {
  const desired: Desired = { websites: c.websites ?? [], policy: { ...DEFAULT_POLICY, ...c.policy } };
  if (c.projects !== undefined) desired.projects = c.projects;
  const live = { websites: c.live ?? [], ...(c.liveProjects === undefined ? {} : { projects: c.liveProjects }) };
  const result = plan(desired, live, { configFile: "sitesync.yaml", configDigest: "d1g35t", ...c.options });
  expect(validatePlan(result), JSON.stringify(validatePlan.errors, null, 2)).toBe(true);
  return result;
}

const only = <T extends Change>(p: Plan): T => {
  expect(p.changes).toHaveLength(1);
  return p.changes[0] as T;
};
const codes = (p: Plan) => p.warnings.map((w) => w.code);

describe("identity by normalized domain (API-NOTES §2.4, DESIGN §4)", () => {
  const spellings = ["Example.COM", "www.example.com", "example.com.", "example.com/", "https://www.example.com/"];
  it.each([...spellings, "http://example.com"])("desired %s matches live example.com without a diff", (domain) => {
    const p = run({ websites: [want(domain, { privacy: 0 })], live: [site(1, "example.com")] });
    expect(p.changes).toEqual([]);
    expect(p.summary).toMatchObject({ unchanged: 1, create: 0, delete: 0 });
  });

  it("normalizes live domains too", () => {
    const p = run({ websites: [want("example.com")], live: [site(1, "WWW.Example.com.")], policy: { prune: true } });
    expect(p.changes).toEqual([]);
  });

  it("treats a changed domain as a create plus (with prune) a delete, never a rename", () => {
    const p = run({ websites: [want("new.example.com")], live: [site(7, "old.example.com")], policy: { prune: true } });
    expect(p.changes.map((c) => [c.action, c.kind === "website" ? c.domain : c.project])).toEqual([
      ["create", "new.example.com"],
      ["delete", "old.example.com"],
    ]);
  });
});

describe("comparing a listed website with its live twin", () => {
  const cases: [string, WebsiteFields, Partial<LiveWebsite>, unknown[]][] = [
    [
      "unset fields are unmanaged: never compared",
      {},
      { privacy: 1, email: 5, exclude_bots: 0, exclude_ips: ["1.2.3.4"], favorite: true },
      [],
    ],
    [
      "exclude_ips order and duplicates mean nothing",
      { exclude_ips: ["10.0.0.0/8", "1.2.3.4", "1.2.3.4"] },
      { exclude_ips: ["1.2.3.4", "10.0.0.0/8"] },
      [],
    ],
    ["only the set fields that differ", { email: 1, exclude_bots: 1 }, { privacy: 1, email: 0 }, [{ field: "email", before: 0, after: 1 }]],
    ["privacy", { privacy: 1 }, {}, [{ field: "privacy", before: 0, after: 1 }]],
    ["exclude_bots", { exclude_bots: 0 }, {}, [{ field: "exclude_bots", before: 1, after: 0 }]],
    ["favorite", { favorite: true }, {}, [{ field: "favorite", before: false, after: true }]],
    [
      "exclude_ips as a set, sent in config order",
      { exclude_ips: ["9.9.9.9", "1.2.3.4"] },
      { exclude_ips: ["1.2.3.4", "5.6.7.8"] },
      [{ field: "exclude_ips", before: ["1.2.3.4", "5.6.7.8"], after: ["9.9.9.9", "1.2.3.4"] }],
    ],
  ];
  it.each(cases)("%s", (_name, fields, live, expected) => {
    const p = run({ websites: [want("example.com", fields)], live: [site(12, "example.com", live)] });
    if (expected.length === 0) {
      expect(p.changes).toEqual([]);
      expect(p.summary.unchanged).toBe(1);
    } else {
      const update = only<WebsiteUpdate>(p);
      expect(update).toMatchObject({ action: "update", domain: "example.com", id: 12 });
      expect(update.fields).toEqual(expected);
    }
  });

  it("reads a live null privacy/email (as the API returns a site created without them) as 0, like the UI", () => {
    // Decoded from the API's own answer, so the test covers the whole way from `null` on the wire to the diff.
    const fromApi = decodeWebsite({ ...site(12, "example.com"), privacy: null, email: null, exclude_ips: null });
    expect(run({ websites: [want("example.com", { privacy: 0, email: 0 })], live: [fromApi] }).changes).toEqual([]);
    const update = only<WebsiteUpdate>(run({ websites: [want("example.com", { privacy: 1, email: 1 })], live: [fromApi] }));
    expect(update.fields).toEqual([
      { field: "privacy", before: 0, after: 1 },
      { field: "email", before: 0, after: 1 },
    ]);
  });

  it("orders fields the same way whatever the config order", () => {
    const p = run({
      websites: [want("example.com", { favorite: true, exclude_ips: ["1.1.1.1"], email: 1, privacy: 1 })],
      live: [site(1, "example.com")],
    });
    expect(only<WebsiteUpdate>(p).fields.map((f) => f.field)).toEqual(["privacy", "email", "exclude_ips", "favorite"]);
  });

  it("records the live fingerprint and the config position on the update", () => {
    const live = site(12, "example.com", { updated_at: "2025-03-01T00:00:00.000000Z" });
    const p = run({ websites: [want("example.com", { email: 1 }, 14)], live: [live] });
    expect(only<WebsiteUpdate>(p)).toMatchObject({ fingerprint: websiteFingerprint(live), source: SRC(14) });
  });
});

describe("creates (DESIGN §2, §4)", () => {
  it("sends explicit privacy 0, email 0 and exclude_bots 1 when unset, since the API stores null", () => {
    const create = only<WebsiteCreate>(run({ websites: [want("new.example.com", {}, 3)] }));
    expect(create).toEqual({
      kind: "website",
      action: "create",
      domain: "new.example.com",
      fields: [
        { field: "privacy", before: null, after: 0 },
        { field: "email", before: null, after: 0 },
        { field: "exclude_bots", before: null, after: 1 },
      ],
      requests: 1,
      source: SRC(3),
    });
  });

  it("sends every field the config sets instead of the defaults", () => {
    const fields: WebsiteFields = { privacy: 2, password: "hunter2", email: 1, exclude_bots: 0, exclude_params: ["&"] };
    const create = only<WebsiteCreate>(run({ websites: [want("new.example.com", { ...fields, exclude_ips: ["::1"] })] }));
    expect(create.fields).toEqual([
      { field: "privacy", before: null, after: 2 },
      { field: "password", before: null, after: SENSITIVE, sensitive: true, writeOnly: true },
      { field: "email", before: null, after: 1 },
      { field: "exclude_bots", before: null, after: 0 },
      { field: "exclude_params", before: null, after: ["&"], writeOnly: true },
      { field: "exclude_ips", before: null, after: ["::1"] },
    ]);
  });

  it.each([
    [true, 2],
    [false, 1],
  ] as const)("favorite: %s takes %i requests (favorite is only settable by PUT)", (favorite, requests) => {
    const create = only<WebsiteCreate>(run({ websites: [want("fav.example.com", { favorite })] }));
    expect(create.requests).toBe(requests);
    expect(create.fields.at(-1)).toEqual({ field: "favorite", before: null, after: favorite });
  });
});

describe("write-only fields (DESIGN §3, API-NOTES §2.1)", () => {
  const secretSite = want("example.com", { privacy: 2, password: "s3cret-pass", exclude_params: ["utm_source"] });

  it("never diffs them: the plan says what it cannot verify instead", () => {
    const p = run({ websites: [secretSite], live: [site(1, "example.com", { privacy: 2, password: true })] });
    expect(p.changes).toEqual([]);
    expect(p.summary.unchanged).toBe(1);
    expect(p.unverifiable).toEqual([
      { field: "password", count: 1 },
      { field: "exclude_params", count: 1 },
    ]);
    // Data only: the renderers phrase it (src/render/render.test.ts), so no warning repeats it.
    expect(codes(p)).not.toContain("write-only-unverified");
  });

  it("sends the password when privacy becomes password", () => {
    const p = run({ websites: [secretSite], live: [site(1, "example.com", { privacy: 0, password: true })] });
    expect(only<WebsiteUpdate>(p).fields).toEqual([
      { field: "privacy", before: 0, after: 2 },
      { field: "password", before: null, after: SENSITIVE, sensitive: true, writeOnly: true, sentBecause: "privacy-change" },
    ]);
    expect(p.unverifiable).toEqual([{ field: "exclude_params", count: 1 }]);
  });

  it.each([
    ["the config asks for privacy password", { privacy: 2 as const, password: "pw" }],
    ["privacy is unmanaged", { password: "pw" }],
  ])("sends the password when the site is protected but has none stored (%s)", (_name, fields) => {
    const live = site(1, "example.com", { privacy: 2, password: false });
    const p = run({ websites: [want("example.com", fields)], live: [live] });
    expect(only<WebsiteUpdate>(p).fields).toEqual([
      { field: "password", before: null, after: SENSITIVE, sensitive: true, writeOnly: true, sentBecause: "no-password" },
    ]);
  });

  it("keeps the stored password: privacy password without a password needs no secret (DESIGN §2)", () => {
    const p = run({ websites: [want("example.com", { privacy: 2 })], live: [site(1, "example.com", { privacy: 1, password: true })] });
    expect(only<WebsiteUpdate>(p).fields).toEqual([{ field: "privacy", before: 1, after: 2 }]);
    expect(codes(p)).toEqual([]);
    const protectedAlready = run({ websites: [want("example.com", { privacy: 2 })], live: [site(1, "example.com", { privacy: 2 })] });
    expect(protectedAlready.changes).toEqual([]);
    expect(codes(protectedAlready)).toEqual([]);
  });

  it.each([
    ["a create", []],
    ["privacy becoming password with none stored", [site(1, "example.com", { privacy: 0, password: false })]],
  ] as const)("plans and flags a change whose password must be sent but is not set: %s", (_name, live) => {
    const p = run({ websites: [want("example.com", { privacy: 2 }, 4)], live: [...live], options: { syncWriteOnly: true } });
    const because = live.length === 0 ? "create" : "privacy-change";
    expect(p.changes).toEqual([expect.objectContaining({ domain: "example.com", needs: { secret: "password", because } })]);
    expect(p.changes[0]?.source?.line).toBe(4);
    expect(p.changes[0]).not.toMatchObject({ fields: expect.arrayContaining([expect.objectContaining({ field: "password" })]) });
    expect(codes(p)).toEqual([]);
  });

  it("sends with --sync-write-only what the config sets, and a password site without a password keeps its own", () => {
    // An exported account: password sites are listed with privacy password and no password (DESIGN §2).
    const p = run({
      websites: [want("locked.example.com", { privacy: 2 }), want("shop.example.com", { privacy: 2, exclude_params: ["fbclid"] })],
      live: [site(1, "locked.example.com", { privacy: 2, password: true }), site(2, "shop.example.com", { privacy: 2, password: true })],
      options: { syncWriteOnly: true },
    });
    expect(codes(p)).toEqual([]);
    expect(only<WebsiteUpdate>(p)).toMatchObject({
      domain: "shop.example.com",
      fields: [{ field: "exclude_params", before: null, after: ["fbclid"], writeOnly: true, sentBecause: "sync-write-only" }],
    });
    expect(p.summary).toMatchObject({ update: 1, unchanged: 1 });
  });

  it("leaves a password alone while privacy is not password, even when the config sets one", () => {
    const p = run({ websites: [want("example.com", { privacy: 0, password: "pw" })], live: [site(1, "example.com")] });
    expect(p.changes).toEqual([]);
    expect(p.unverifiable).toEqual([{ field: "password", count: 1 }]);
  });

  it("sends every write-only value with syncWriteOnly, and then has nothing left to verify", () => {
    const p = run({
      websites: [secretSite, want("plain.example.com", { email: 0 })],
      live: [site(1, "example.com", { privacy: 2, password: true }), site(2, "plain.example.com")],
      options: { syncWriteOnly: true },
    });
    expect(only<WebsiteUpdate>(p)).toMatchObject({ domain: "example.com" });
    expect(only<WebsiteUpdate>(p).fields).toEqual([
      { field: "password", before: null, after: SENSITIVE, sensitive: true, writeOnly: true, sentBecause: "sync-write-only" },
      { field: "exclude_params", before: null, after: ["utm_source"], writeOnly: true, sentBecause: "sync-write-only" },
    ]);
    expect(p.summary).toMatchObject({ update: 1, unchanged: 1 });
    expect(p.unverifiable).toEqual([]);
    expect(codes(p)).not.toContain("write-only-unverified");
  });

  it("never puts a password in the plan or any rendering of it", () => {
    const secrets = ["s3cret-pass", "other-Secret-9", "third-secret!"];
    const plans = [
      run({ websites: [want("new.example.com", { privacy: 2, password: secrets[0] })] }),
      run({ websites: [want("a.example.com", { privacy: 2, password: secrets[1] })], live: [site(1, "a.example.com")] }),
      run({ websites: [want("b.example.com", { password: secrets[2] })], live: [site(2, "b.example.com", { privacy: 2 })] }),
      run({
        websites: [want("c.example.com", { privacy: 2, password: secrets[0] })],
        live: [site(3, "c.example.com", { privacy: 2, password: true })],
        options: { syncWriteOnly: true },
      }),
    ];
    for (const p of plans) {
      expect(p.changes).toHaveLength(1);
      const outputs = [
        JSON.stringify(p),
        render(p, "text"),
        render(p, "text", { color: true, verbose: true }),
        render(p, "json"),
        render(p, "markdown"),
      ];
      for (const output of outputs) {
        for (const secret of secrets) expect(output).not.toContain(secret);
        expect(output).toContain(SENSITIVE);
      }
    }
  });
});

describe("tombstones, prune, protect and ignore (DESIGN §2, §3)", () => {
  it("deletes a tombstoned live website, and does nothing when it is already gone", () => {
    const p = run({ websites: [gone("old.example.com", 9), gone("never.example.com")], live: [site(7, "old.example.com")] });
    expect(only(p)).toEqual({
      kind: "website",
      action: "delete",
      domain: "old.example.com",
      id: 7,
      reason: "tombstone",
      fingerprint: websiteFingerprint(site(7, "old.example.com")),
      source: SRC(9),
    });
    expect(p.summary).toEqual({ create: 0, update: 0, delete: 1, unchanged: 0, unmanaged: 0, ignored: 0 });
  });

  it("never prunes a second live copy of a listed domain, and manages the copy stored exactly as written", () => {
    // The API compares raw strings for uniqueness, so "example.com." and "example.com" can both exist.
    const live = [site(1, "example.com."), site(2, "example.com", { privacy: 1 })];
    const p = run({ websites: [want("example.com", { privacy: 1 })], live, policy: { prune: true } });
    expect(p.changes).toEqual([]);
    expect(p.summary).toMatchObject({ unchanged: 1, unmanaged: 1, delete: 0 });
    expect(codes(p)).toEqual(["duplicate-live"]);
  });

  it("plans in the file's order but warns in domain order, and picks the managed copy whatever the account's order", () => {
    // Planned without sorting 100,000 entries: the first entry of a domain still wins, the warnings still read by name.
    const websites = [want("z.example.com", {}, 3), want("b.example.com", { privacy: 1 }, 5), want("b.example.com", { privacy: 2 }, 9)];
    const live = [site(7, "b.example.com."), site(3, "b.example.com"), site(5, "z.example.com"), site(2, "z.example.com.")];
    const p = run({ websites, live, policy: { ignore: ["z.*"] } });
    expect(p.warnings.map((w) => `${w.code} ${w.subject} ${w.source?.line ?? ""}`)).toEqual([
      "duplicate-live b.example.com ",
      "duplicate-live z.example.com ",
      "duplicate-domain b.example.com 9",
      "ignored z.example.com 3",
    ]);
    expect(p.changes).toMatchObject([{ action: "update", domain: "b.example.com", id: 3, fields: [{ field: "privacy", after: 1 }] }]);
    const reordered = run({ websites, live: [...live].reverse(), policy: { ignore: ["z.*"] } });
    expect(JSON.stringify(reordered)).toBe(JSON.stringify(p));
  });

  it("counts unlisted live websites as unmanaged while prune is off", () => {
    const live = [site(1, "a.example.com"), site(2, "b.example.com"), site(3, "c.example.com")];
    const p = run({ websites: [want("a.example.com")], live });
    expect(p.changes).toEqual([]);
    expect(p.summary).toMatchObject({ unchanged: 1, unmanaged: 2 });
  });

  it("deletes unlisted live websites with prune, except protected ones", () => {
    const p = run({
      websites: [want("a.example.com")],
      live: [site(1, "a.example.com"), site(2, "b.example.org"), site(3, "Keep.Example.com")],
      policy: { prune: true, protect: ["*.EXAMPLE.com"] },
    });
    expect(only(p)).toMatchObject({ action: "delete", domain: "b.example.org", id: 2, reason: "prune" });
    expect(p.summary).toMatchObject({ delete: 1, unchanged: 1, unmanaged: 1 });
  });

  it("keeps a protected website even when it is tombstoned, with a warning", () => {
    const p = run({
      websites: [gone("keep.example.com", 4)],
      live: [site(3, "keep.example.com")],
      policy: { protect: ["keep.*"] },
    });
    expect(p.changes).toEqual([]);
    expect(p.warnings).toEqual([expect.objectContaining({ code: "protected-tombstone", subject: "keep.example.com", source: SRC(4) })]);
  });

  it("never compares, changes or deletes ignored websites, listed or not", () => {
    const p = run({
      websites: [want("tmp-1.example.org", { privacy: 1 }, 6), gone("tmp-2.example.org"), want("tmp-new.example.org")],
      live: [site(1, "tmp-1.example.org"), site(2, "tmp-2.example.org"), site(3, "TMP-9.example.org")],
      policy: { prune: true, ignore: ["tmp-?.example.org", "tmp-new.*"] },
    });
    expect(p.changes).toEqual([]);
    expect(p.summary).toMatchObject({ ignored: 4, delete: 0, create: 0, update: 0, unmanaged: 0 });
    const ignored = p.warnings.filter((w) => w.code === "ignored").map((w) => w.subject);
    expect(ignored).toEqual(["tmp-1.example.org", "tmp-2.example.org", "tmp-new.example.org"]);
    expect(p.warnings[0]?.source).toEqual(SRC(6));
  });
});

describe("projects (API-NOTES §5)", () => {
  const liveProjects = [project("kept.example.com"), project("retired.example.com"), project("stray.example.com")];

  it("leaves projects untouched when the config has no projects key", () => {
    const p = run({ live: [], liveProjects, policy: { prune: true } });
    expect(p.changes).toEqual([]);
    expect(p.summary).toEqual({ create: 0, update: 0, delete: 0, unchanged: 0, unmanaged: 0, ignored: 0 });
  });

  it("keeps listed projects, deletes tombstoned ones, and counts the rest unmanaged without prune", () => {
    const projects = [keep("kept.example.com"), drop("retired.example.com"), drop("long-gone.example.com")];
    const p = run({ projects, liveProjects });
    expect(only(p)).toEqual({
      kind: "project",
      action: "delete",
      project: "retired.example.com",
      reason: "tombstone",
      fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(p.summary).toMatchObject({ unchanged: 1, delete: 1, unmanaged: 1 });
  });

  it("warns that a listed project that does not exist cannot be created", () => {
    const p = run({ projects: [keep("missing.example.com")], liveProjects: [] });
    expect(p.changes).toEqual([]);
    expect(p.warnings).toEqual([expect.objectContaining({ code: "project-missing", subject: "missing.example.com" })]);
  });

  it("prunes unlisted projects, except protected and ignored ones", () => {
    const p = run({
      projects: [keep("kept.example.com")],
      liveProjects: [...liveProjects, project("tmp.example.org")],
      policy: { prune: true, protect: ["retired.*"], ignore: ["tmp.*"] },
    });
    expect(p.changes).toEqual([expect.objectContaining({ kind: "project", project: "stray.example.com", reason: "prune" })]);
    expect(p.summary).toMatchObject({ unchanged: 1, delete: 1, unmanaged: 1, ignored: 1 });
  });

  it("warns instead of planning when projects are listed but were not read", () => {
    const p = run({ projects: [keep("kept.example.com")] });
    expect(p.changes).toEqual([]);
    expect(codes(p)).toEqual(["projects-not-read"]);
  });
});

describe("safety rails (DESIGN §3)", () => {
  const live = Array.from({ length: 6 }, (_, i) => site(i + 1, `s${i + 1}.example.com`));
  const tombstones = live.map((w) => gone(w.domain));

  it.each<[string, Case, string[]]>([
    ["6 deletes over the default limit of 5", { websites: tombstones, live }, ["max-deletes"]],
    ["--max-deletes 6 lets them through", { websites: tombstones, live, options: { maxDeletes: 6 } }, []],
    ["policy.max_deletes 10 lets them through", { websites: tombstones, live, policy: { maxDeletes: 10 } }, []],
    [
      "--max-deletes overrides a looser policy",
      { websites: tombstones, live, policy: { maxDeletes: 10 }, options: { maxDeletes: 2 } },
      ["max-deletes"],
    ],
    ["exactly the limit is fine", { websites: tombstones.slice(0, 5), live }, []],
    [
      "project deletes count toward the limit",
      {
        websites: tombstones.slice(0, 5),
        live,
        projects: [drop("p.example.com")],
        liveProjects: [project("p.example.com")],
      },
      ["max-deletes"],
    ],
    ["prune with an empty website list", { live: live.slice(0, 2), policy: { prune: true } }, ["empty-prune"]],
    [
      "prune with only tombstones keeps nothing either",
      { websites: [gone("x.example.com")], live: live.slice(0, 2), policy: { prune: true } },
      ["empty-prune"],
    ],
    [
      "prune with only ignored websites listed keeps nothing either",
      { websites: [want("tmp-1.example.org")], live: live.slice(0, 2), policy: { prune: true, ignore: ["tmp-*"] } },
      ["empty-prune"],
    ],
    ["--allow-empty lets it through", { live: live.slice(0, 2), policy: { prune: true }, options: { allowEmpty: true } }, []],
    ["an empty list on an empty account is fine", { policy: { prune: true } }, []],
    ["both rails at once", { live, policy: { prune: true } }, ["max-deletes", "empty-prune"]],
    [
      "prune with an empty project list",
      {
        websites: [want("s1.example.com")],
        live: live.slice(0, 1),
        projects: [],
        liveProjects: [project("p.example.com")],
        policy: { prune: true },
      },
      ["empty-prune"],
    ],
  ])("%s", (_name, c, expected) => {
    expect(run(c).refusals.map((r) => r.code)).toEqual(expected);
  });

  it("says how many deletes, the limit, and the specific override: a flag on the CLI, an input in the Action", () => {
    const [refusal] = run({ websites: tombstones, live }).refusals;
    expect(refusal).toEqual({ code: "max-deletes", websites: 6, projects: 0, limit: 5, partial: false });
    const cli = refusalWords(refusal!, "cli");
    expect(cli).toContain("The plan deletes 6 websites, more than the limit of 5.");
    expect(cli).toContain("run again with --max-deletes 6 (or raise policy.max_deletes)");
    expect(refusalWords(refusal!, "action")).toContain("set the max-deletes input to 6 (or raise policy.max_deletes)");
  });

  it("names --allow-empty (the allow-empty input) and still shows what would be deleted", () => {
    const p = run({ live: live.slice(0, 2), policy: { prune: true } });
    expect(p.refusals[0]).toEqual({ code: "empty-prune", kind: "website", pruned: 2, partial: false });
    expect(refusalWords(p.refusals[0]!, "cli")).toContain(
      "2 live websites and their collected statistics. If that is really intended, run again with --allow-empty.",
    );
    expect(refusalWords(p.refusals[0]!, "action")).toContain("set the allow-empty input to true");
    expect(p.changes).toHaveLength(2);
  });
});

describe("estimate", () => {
  const c: Case = {
    websites: [
      want("fav.example.com", { favorite: true }),
      want("new.example.com"),
      want("a.example.com", { email: 1 }),
      gone("b.example.com"),
    ],
    live: [site(1, "a.example.com"), site(2, "b.example.com")],
  };

  it("counts a request per change, two for a favorite create, and the reads of a full read of the live state", () => {
    // 5 writes and 1 page of websites: a fresh window takes them at once; one another run just spent, a minute.
    expect(run(c).estimate).toEqual({ requests: 5, reads: 1, rateLimit: 60, rateWindowSeconds: 60, seconds: 0, secondsAtMost: 60 });
  });

  it("counts the reads it is given, at the rate and budget the run knows", () => {
    const rate = { limit: 60, windowMs: 60_000, budget: { remaining: 20, refillsInMs: 58_000 } };
    const p = run({ ...c, options: { reads: 100, rate } });
    // 105 requests: one window's wait from a fresh window, two from a spent one.
    expect(p.estimate).toMatchObject({
      requests: 5,
      reads: 100,
      seconds: 60,
      secondsAtMost: 120,
      budget: { remaining: 20, refillSeconds: 58 },
    });
  });
});

describe("determinism", () => {
  const websites = [
    want("b.example.com", { email: 1 }),
    want("z.example.com"),
    want("a.example.com", { exclude_ips: ["1.1.1.1", "2.2.2.2"] }),
    gone("old.example.com"),
    want("c.example.com"),
    want("m.example.com", { privacy: 2, password: "pw" }),
  ];
  const live = [
    site(5, "old.example.com"),
    site(1, "b.example.com"),
    site(2, "a.example.com"),
    site(3, "x.example.com"),
    site(4, "m.example.com", { privacy: 2, password: true }),
  ];
  const projects = [drop("q.example.com"), keep("p.example.com")];
  const liveProjects = [project("q.example.com"), project("r.example.com"), project("p.example.com")];
  const c: Case = { websites, live, projects, liveProjects, policy: { prune: true, maxDeletes: 10 } };

  it("orders changes creates, updates, website deletes, project deletes, each by name", () => {
    const p = run(c);
    expect(p.changes.map((ch) => `${ch.action} ${ch.kind === "website" ? ch.domain : ch.project}`)).toEqual([
      "create c.example.com",
      "create z.example.com",
      "update a.example.com",
      "update b.example.com",
      "delete old.example.com",
      "delete x.example.com",
      "delete q.example.com",
      "delete r.example.com",
    ]);
  });

  it("gives the same plan and hash whatever order the inputs come in", () => {
    const first = run(c);
    const shuffled = run({
      ...c,
      websites: [...websites].reverse(),
      live: [2, 4, 0, 3, 1].map((i) => live[i]!),
      projects: [...projects].reverse(),
      liveProjects: [...liveProjects].reverse(),
    });
    expect(shuffled).toEqual(first);
    expect(JSON.stringify(shuffled)).toBe(JSON.stringify(first));
  });

  it("hashes the canonical plan without its hash, and any change moves the hash", () => {
    const p = run(c);
    const { hash, ...rest } = p;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(planHash(rest)).toBe(hash);
    expect(run({ ...c, options: { configDigest: "other" } }).hash).not.toBe(hash);
    expect(run({ ...c, options: { syncWriteOnly: true } }).hash).not.toBe(hash);
  });
});

describe("fingerprints", () => {
  it("move when the live site changes, and not when only the stored order of exclude_ips does", () => {
    const base = site(1, "example.com", { exclude_ips: ["1.1.1.1", "2.2.2.2"] });
    expect(websiteFingerprint(base)).toMatch(/^[0-9a-f]{16}$/);
    expect(websiteFingerprint({ ...base, exclude_ips: ["2.2.2.2", "1.1.1.1"] })).toBe(websiteFingerprint(base));
    const changes: Partial<LiveWebsite>[] = [{ updated_at: "2026-01-01T00:00:00.000000Z" }, { password: true }, { privacy: 1 }];
    for (const changed of changes) {
      expect(websiteFingerprint({ ...base, ...changed })).not.toBe(websiteFingerprint(base));
    }
  });
});

describe("schemas/plan.schema.json", () => {
  const p = run({ websites: [want("new.example.com", { privacy: 2, password: "pw" })] });

  it("rejects a saved plan that carries a password, or keys it does not know", () => {
    const leaked = structuredClone(p);
    (leaked.changes[0] as WebsiteCreate).fields[1]!.after = "pw";
    expect(validatePlan(leaked)).toBe(false);
    expect(validatePlan({ ...p, force: true })).toBe(false);
    expect(validatePlan({ ...p, changes: [{ ...p.changes[0], id: 3 }] })).toBe(false);
  });
});
