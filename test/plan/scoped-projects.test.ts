/**
 * A plan that follows the change, for projects and for names the API's `search` reads as LIKE wildcards
 * (DESIGN §3 "Plans that follow the change", API-NOTES §2.2, §5): the real CLI against the sandbox over HTTP.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync, workdir } from "../helpers/cli.ts";
import { git } from "../helpers/git.ts";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function account(options: SandboxOptions): Promise<Sandbox> {
  sandbox = await startSandbox({ rateLimit: 0, ...options });
  return sandbox;
}

/** A repository whose sitesync.yaml is `base` at HEAD~1 and `head` at HEAD. */
function repository(base: string, head: string): string {
  const dir = workdir();
  git(dir, "init", "-q");
  writeFileSync(join(dir, "sitesync.yaml"), base);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  writeFileSync(join(dir, "sitesync.yaml"), head);
  git(dir, "commit", "-q", "-am", "head");
  return dir;
}

const envOf = (s: Sandbox) => ({ SITESYNC_API_KEY: s.apiKey, SITESYNC_WEBSITES_URL: s.url, SITESYNC_PROJECTS_URL: s.url });

/** The list requests the sandbox saw on `path`, as `search|per_page|page` (an empty search: a size probe or a full read). */
function lists(s: Sandbox, path: string): string[] {
  return s.requests
    .filter((r) => r.method === "GET" && r.path === path)
    .map((r) => `${r.query.search ?? ""}|${r.query.per_page}|${r.query.page ?? 1}`);
}

const BASE = `version: 1
policy: { prune: true }
websites:
  - domain: a.com
projects:
  - project: keep.example.org
  - project: ghost.example.org
`;
/** A project tombstone that the base did not list at all. */
const TOMBSTONE_ADDED = BASE.replace(
  "  - project: ghost.example.org\n",
  "  - project: ghost.example.org\n  - project: retired.example.org\n    state: absent\n",
);

describe("a scoped plan of projects", () => {
  it("touches a project tombstone new to the file, looks it up alone, and deletes it", async () => {
    const s = await account({
      seed: 0,
      seedProjects: 1_000,
      websites: [{ domain: "a.com" }],
      projects: [{ project: "keep.example.org" }, { project: "retired.example.org" }],
    });
    const dir = repository(BASE, TOMBSTONE_ADDED);

    const planned = await sitesync(["plan", "--changed-since", "HEAD~1", "--detailed-exitcode"], { env: envOf(s), cwd: dir });
    expect(planned.code, planned.stderr).toBe(2);
    expect(planned.stdout).toContain("only the 1 project it touches was read and compared");
    expect(planned.stdout).toContain("- delete  project retired.example.org (state: absent)");
    expect(planned.stdout).toContain("Plan: 0 to create, 0 to update, 1 to delete");
    expect(lists(s, "/api/v1/projects")).toEqual(["|10|1", "retired.example.org|100|1"]);
    expect(lists(s, "/api/v1/websites")).toEqual([]);

    const applied = await sitesync(["apply", "--changed-since", "HEAD~1", "--auto-approve"], { env: envOf(s), cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    expect(s.store.projects("project").map((p) => p.project)).not.toContain("retired.example.org");
    expect(s.store.projects("project")).toHaveLength(1_001);
  });

  it("reads the projects alone in full when their lookups would cost more, and the websites stay looked up", async () => {
    // Three projects: their listing is one page, so looking one up (a probe and a search) costs more.
    const s = await account({
      seed: 1_000,
      seedProjects: 2,
      websites: [{ domain: "a.com" }],
      projects: [{ project: "retired.example.org" }],
    });
    const head = TOMBSTONE_ADDED.replace("  - domain: a.com\n", "  - domain: a.com\n    email: true\n");
    const dir = repository(BASE, head);

    const planned = await sitesync(["plan", "--changed-since", "HEAD~1"], { env: envOf(s), cwd: dir });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain("Scoped to the change since HEAD~1");
    expect(planned.stdout).toContain("only the 1 website and 1 project it touches were read and compared");
    expect(planned.stdout).toContain("~ update  a.com");
    expect(planned.stdout).toContain("- delete  project retired.example.org (state: absent)");
    // The projects' probe, then their one page; the websites' probe and one search: never the 11 pages of websites.
    expect(lists(s, "/api/v1/projects")).toEqual(["|10|1", "|100|1"]);
    expect(lists(s, "/api/v1/websites")).toEqual(["|10|1", "a.com|100|1"]);
    expect(planned.stdout).toContain("≈ 6 requests: 4 reads, 2 writes");
  });

  it("warns nothing about projects it did not look up, and prunes none of them", async () => {
    // ghost.example.org is listed but not live, project-0000N are live but not listed, under prune: a full
    // plan warns about the one and deletes the others; a plan of a change that touches neither does not.
    const s = await account({
      seed: 1_000,
      seedProjects: 2,
      websites: [{ domain: "a.com" }],
      projects: [{ project: "keep.example.org" }, { project: "retired.example.org" }],
    });
    const full = await sitesync(["plan"], { env: envOf(s), cwd: workdir({ "sitesync.yaml": TOMBSTONE_ADDED }) });
    expect(full.stdout).toContain("Project ghost.example.org does not exist");
    expect(full.stdout).toContain("- delete  project project-00001.example.org (not listed, prune on)");

    const websiteOnly = repository(BASE, BASE.replace("  - domain: a.com\n", "  - domain: a.com\n    email: true\n"));
    s.resetLog();
    const scoped = await sitesync(["plan", "--changed-since", "HEAD~1"], { env: envOf(s), cwd: websiteOnly });
    expect(scoped.code, scoped.stderr).toBe(0);
    expect(scoped.stdout).not.toMatch(/\.example\.org/);
    expect(scoped.stdout).not.toContain("Warnings");
    expect(lists(s, "/api/v1/projects")).toEqual([]);

    // A touched project read through the projects' full listing: still only that project is judged.
    const projectTouched = repository(BASE, TOMBSTONE_ADDED);
    const json = await sitesync(["plan", "--changed-since", "HEAD~1", "--format", "json"], { env: envOf(s), cwd: projectTouched });
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout) as { changes: { project?: string }[]; warnings: unknown[]; summary: Record<string, number> };
    expect(plan.changes.map((c) => c.project)).toEqual(["retired.example.org"]);
    expect(plan.warnings).toEqual([]);
    expect(plan.summary).toMatchObject({ delete: 1, unchanged: 0, unmanaged: 0 });
  });
});

describe("a name the API's search reads as LIKE wildcards", () => {
  // Each name beside live decoys its search term matches too: the lookup must keep the exact name only.
  const NAMES = ["my_shop.example.com", "50%off.example.com", "back\\slash.example.com"];
  const DECOYS = [
    "myxshop.example.com",
    "shop.example.com",
    "50xoff.example.com",
    "off.example.com",
    "backxslash.example.com",
    "slash.example.com",
  ];

  it("finds the website and the project by their lookups, and changes nothing else", async () => {
    const websites = [...NAMES, ...DECOYS].map((domain) => ({ domain, email: 0 }));
    const s = await account({
      seed: 1_000,
      seedProjects: 1_000,
      websites,
      projects: [{ project: "x_y.example.org" }, { project: "xzy.example.org" }],
    });
    const quoted = (name: string) => `'${name}'`;
    const base = `version: 1\nwebsites:\n${NAMES.map((n) => `  - domain: ${quoted(n)}\n`).join("")}projects:\n  - project: keep.example.org\n`;
    const head = `${base.replace(/(domain: '[^']+'\n)/g, "$1    email: true\n")}  - project: x_y.example.org\n    state: absent\n`;
    const dir = repository(base, head);

    const planned = await sitesync(["plan", "--changed-since", "HEAD~1", "--format", "json"], { env: envOf(s), cwd: dir });
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as {
      since: { read: string };
      changes: { action: string; domain?: string; id?: number; project?: string }[];
    };
    expect(plan.since.read).toBe("scoped");
    const idOf = (domain: string) => s.store.findWebsite(domain)!.id;
    expect(plan.changes.map((c) => [c.action, c.domain ?? c.project, c.id])).toEqual([
      ["update", "50%off.example.com", idOf("50%off.example.com")],
      ["update", "back\\slash.example.com", idOf("back\\slash.example.com")],
      ["update", "my_shop.example.com", idOf("my_shop.example.com")],
      ["delete", "x_y.example.org", undefined],
    ]);
    // Each was searched for by a part that holds no wildcard, whatever the server's escape rules.
    expect(lists(s, "/api/v1/websites").sort()).toEqual([
      "off.example.com|100|1",
      "shop.example.com|100|1",
      "slash.example.com|100|1",
      "|10|1",
    ]);
    expect(lists(s, "/api/v1/projects").sort()).toEqual(["y.example.org|100|1", "|10|1"]);

    const applied = await sitesync(["apply", "--changed-since", "HEAD~1", "--auto-approve"], { env: envOf(s), cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    const emails = Object.fromEntries(
      s.store
        .websites()
        .filter((w) => !w.domain.startsWith("site-"))
        .map((w) => [w.domain, w.email]),
    );
    expect(emails).toEqual({ ...Object.fromEntries(DECOYS.map((d) => [d, 0])), ...Object.fromEntries(NAMES.map((n) => [n, 1])) });
    expect(s.store.projects("project").map((p) => p.project)).toContain("xzy.example.org");
    expect(s.store.projects("project").map((p) => p.project)).not.toContain("x_y.example.org");
  });
});
