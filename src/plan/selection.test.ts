import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { liveWebsite as site } from "../../test/helpers/live-website.ts";
import { DEFAULT_POLICY, type Policy } from "../model/policy.ts";
import type { DesiredProject, LiveProject } from "../model/project.ts";
import type { DesiredWebsite, LiveWebsite } from "../model/website.ts";
import type { Privacy } from "../model/website-fields.ts";
import { refusalWords } from "../render/refusal-words.ts";
import { planHash } from "./fingerprint.ts";
import { plan } from "./plan.ts";
import type { Change, Plan, Selection } from "./types.ts";

const schema = JSON.parse(readFileSync(new URL("../../schemas/plan.schema.json", import.meta.url), "utf8"));
const validatePlan = new Ajv2020({ allErrors: true }).compile(schema);

const want = (domain: string, privacy: Privacy = 0): DesiredWebsite => ({ domain, state: "present", privacy });
const gone = (domain: string): DesiredWebsite => ({ domain, state: "absent" });
const project = (name: string): LiveProject => ({ project: name, reports: 1, result: 50, created_at: "2024-01-04T18:37:00.000000Z" });

interface Case {
  websites?: DesiredWebsite[];
  live?: LiveWebsite[];
  projects?: DesiredProject[];
  liveProjects?: LiveProject[];
  policy?: Partial<Policy>;
  selection?: Partial<Selection>;
  maxDeletes?: number;
}

function run(c: Case): Plan {
  const desired = {
    websites: c.websites ?? [],
    policy: { ...DEFAULT_POLICY, ...c.policy },
    ...(c.projects ? { projects: c.projects } : {}),
  };
  const live = { websites: c.live ?? [], ...(c.liveProjects ? { projects: c.liveProjects } : {}) };
  const selection = c.selection && { target: c.selection.target ?? [], exclude: c.selection.exclude ?? [] };
  const result = plan(desired, live, {
    configFile: "sitesync.yaml",
    configDigest: "d1g35t",
    ...(selection ? { selection } : {}),
    ...(c.maxDeletes === undefined ? {} : { maxDeletes: c.maxDeletes }),
  });
  expect(validatePlan(result), JSON.stringify(validatePlan.errors, null, 2)).toBe(true);
  return result;
}

const names = (p: Plan) => p.changes.map((c: Change) => `${c.action} ${c.kind === "website" ? c.domain : c.project}`);

// a.example.com drifted, ab.example.com is new, b.example.com is tombstoned, and two live sites are unlisted.
const account: Case = {
  websites: [want("a.example.com", 1), want("ab.example.com"), gone("b.example.com"), want("c.example.com", 1)],
  live: [
    site(1, "a.example.com"),
    site(2, "b.example.com"),
    site(3, "c.example.com"),
    site(4, "a-stray.example.com"),
    site(5, "z-stray.example.com"),
  ],
  policy: { prune: true },
};

describe("--target and --exclude (DESIGN §7)", () => {
  it("plans only the websites a target matches, by normalized domain", () => {
    const p = run({
      ...account,
      websites: [want("https://www.A.example.com/", 1), ...account.websites!.slice(1)],
      selection: { target: ["a*.example.com"] },
    });
    expect(names(p)).toEqual(["create ab.example.com", "update a.example.com", "delete a-stray.example.com"]);
    expect(p.summary).toEqual({ create: 1, update: 1, delete: 1, unchanged: 0, unmanaged: 0, ignored: 0 });
  });

  it("leaves out what an exclude matches, everything else is planned", () => {
    const p = run({ ...account, selection: { exclude: ["*stray*"] } });
    expect(names(p)).toEqual(["create ab.example.com", "update a.example.com", "update c.example.com", "delete b.example.com"]);
  });

  it("lets exclude win over target", () => {
    const p = run({ ...account, selection: { target: ["a*.example.com", "b.example.com"], exclude: ["ab.*", "a-*"] } });
    expect(names(p)).toEqual(["update a.example.com", "delete b.example.com"]);
  });

  it("prunes only inside the selection: a live site outside it is neither deleted nor counted unmanaged", () => {
    const pruning = run({ ...account, selection: { target: ["z*"] } });
    expect(names(pruning)).toEqual(["delete z-stray.example.com"]);
    const notPruning = run({ ...account, policy: { prune: false }, selection: { target: ["c.example.com"] } });
    expect(notPruning.changes.map((c) => c.action)).toEqual(["update"]);
    expect(notPruning.summary.unmanaged).toBe(0);
    expect(run({ ...account, policy: { prune: false } }).summary.unmanaged).toBe(2);
  });

  it("counts max_deletes inside the selection", () => {
    const live = Array.from({ length: 8 }, (_, i) => site(i + 1, `${i < 4 ? "old" : "new"}-${i}.example.com`));
    const everything = run({ websites: live.map((w) => gone(w.domain)), live });
    expect(everything.refusals.map((r) => r.code)).toEqual(["max-deletes"]);
    const selected = run({ websites: live.map((w) => gone(w.domain)), live, selection: { target: ["old-*"] } });
    expect(selected.refusals).toEqual([]);
    expect(selected.summary.delete).toBe(4);
    const tooMany = run({ websites: live.map((w) => gone(w.domain)), live, selection: { target: ["old-*"] }, maxDeletes: 3 });
    expect(refusalWords(tooMany.refusals[0]!, "cli")).toContain(
      "deletes 4 websites inside the --target/--exclude selection, more than the limit of 3",
    );
  });

  it("refuses prune when the config keeps nothing inside the selection, and says so", () => {
    const p = run({ ...account, selection: { target: ["*stray*"] } });
    expect(names(p)).toEqual(["delete a-stray.example.com", "delete z-stray.example.com"]);
    expect(p.refusals.map((r) => r.code)).toEqual(["empty-prune"]);
    expect(refusalWords(p.refusals[0]!, "cli")).toContain("lists no website to keep inside the --target/--exclude selection");
  });

  it("selects projects by name with the same patterns", () => {
    const p = run({
      ...account,
      projects: [
        { project: "a.example.com", state: "absent" },
        { project: "b.example.com", state: "absent" },
      ],
      liveProjects: [project("a.example.com"), project("b.example.com"), project("a-other.example.com")],
      selection: { target: ["a*"], exclude: ["ab.*", "a.example.com"] },
    });
    expect(names(p)).toEqual(["delete a-stray.example.com", "delete a-other.example.com"]);
  });

  it("records the patterns in the plan (and its hash), and nothing when no pattern is given", () => {
    const partial = run({ ...account, selection: { target: ["a*"], exclude: ["ab.*"] } });
    expect(partial.selection).toEqual({ target: ["a*"], exclude: ["ab.*"] });
    const { hash, ...rest } = partial;
    expect(planHash({ ...rest, selection: { target: ["*"], exclude: ["ab.*"] } })).not.toBe(hash);
    expect(run(account).selection).toBeUndefined();
    expect(run({ ...account, selection: {} }).selection).toBeUndefined();
    expect(run({ ...account, selection: {} }).hash).toBe(run(account).hash);
  });

  it("warns about a pattern that matches nothing in the config or the account", () => {
    const p = run({ ...account, selection: { target: ["a*", "shop-*"], exclude: ["nothing.example.net"] } });
    expect(p.warnings.filter((w) => w.code === "selection-unmatched").map((w) => w.message)).toEqual([
      '--target "shop-*" matches no website or project in the config or the account: check the pattern.',
      '--exclude "nothing.example.net" matches no website or project in the config or the account: check the pattern.',
    ]);
  });

  it("gives warnings only about what is inside the selection", () => {
    const p = run({
      websites: [want("dup.example.com"), want("dup.example.com"), want("a.example.com")],
      live: [],
      selection: { target: ["a.*"] },
    });
    expect(p.warnings).toEqual([]);
  });
});
