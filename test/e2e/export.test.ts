/**
 * `export` writes the account as a config that plans to no changes with no secret set (issue 10); it never
 * destroys a file; a password that must be sent but is not set stops plan and apply at the YAML line.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, workdir } from "./helpers.ts";

let sandbox: Sandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await startSandbox({
    rateLimit: 0,
    seed: 300,
    websites: [
      { domain: "locked.example.com", privacy: 2, password: "the-old-password", exclude_ips: ["2001:db8::/32", "192.0.2.1"] },
      { domain: "null-fields.example.com", privacy: null, email: null, exclude_bots: null },
      { domain: "open.example.com", privacy: 0, password: null },
    ],
    projects: [{ project: "example.com" }, { project: "seo.example.org" }],
  });
  // Only the key and the URLs: no password variable of any kind.
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url, SITESYNC_PROJECTS_URL: sandbox.url };
});
afterAll(() => sandbox.close());

const writes = () => sandbox.requests.filter((r) => r.method !== "GET");

describe("export", () => {
  it("round-trips with no secret set: the exported file plans to no changes, then an edit applies and converges", async () => {
    const dir = workdir();
    const exported = await sitesync(["export", "--projects", "--out", "sitesync.yaml"], { env, cwd: dir });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toBe("Exported 303 websites and 2 projects to sitesync.yaml.\n");
    const file = join(dir, "sitesync.yaml");
    const text = readFileSync(file, "utf8");
    expect(text.startsWith("# yaml-language-server: $schema=")).toBe(true);
    expect(text).toContain("write-only");
    expect(text).not.toContain("the-old-password");
    // A password site is privacy: password alone (it keeps the stored password): no password line, no variable.
    expect(text).not.toMatch(/^\s*password:/m);
    expect(text).toContain("  - domain: locked.example.com\n    privacy: password\n    email: false\n");
    const protectedSites = text.match(/privacy: password/g)?.length ?? 0;
    expect(protectedSites).toBeGreaterThan(20);

    const loaded = await loadConfig(file, { env: {} });
    expect(loaded.ok && loaded.config.websites.length).toBe(303);
    const domains = loaded.ok ? loaded.config.websites.map((w) => w.domain) : [];
    expect(domains).toEqual([...domains].sort((a, b) => a.localeCompare(b)));

    const valid = await sitesync(["validate"], { cwd: dir });
    expect(valid.code, valid.stderr).toBe(0);
    const clean = await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir });
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    expect(clean.stdout).toContain("No changes.");

    const edited = text
      .replace(/(- domain: null-fields\.example\.com\n\s+privacy:) public/, "$1 private")
      .replace(/(- domain: open\.example\.com\n\s+privacy:) public/, "$1 password\n    password: ${OPEN_PASSWORD}")
      .replace("\nprojects:", "\n  - domain: added.example.net\nprojects:");
    writeFileSync(file, edited);
    const secretEnv = { ...env, OPEN_PASSWORD: "a-new-password" };
    const review = await sitesync(["plan", "--detailed-exitcode"], { env: secretEnv, cwd: dir });
    expect(review.code).toBe(2);
    expect(review.stdout).toContain("privacy: public → private");
    expect(review.stdout).toContain("+ create  added.example.net");
    const applied = await sitesync(["apply", "--auto-approve"], { env: secretEnv, cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    expect(sandbox.store.findWebsite("open.example.com")?.password).toBe("a-new-password");
    const after = await sitesync(["plan", "--detailed-exitcode"], { env: secretEnv, cwd: dir });
    expect(after.code).toBe(0);
  });

  it("refuses to overwrite an existing file, naming adopt and --force; --force replaces it", async () => {
    const handWritten = `${HEADER}# my hand-written config\nwebsites: []\n`;
    const dir = workdir({ "sitesync.yaml": handWritten });
    sandbox.resetLog();
    const refused = await sitesync(["export", "--out", "sitesync.yaml"], { env, cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'error: sitesync.yaml already exists: to accept the account\'s live changes into it, run "sitesync adopt sitesync.yaml"; to replace it (losing its comments and edits), add --force\n',
    );
    expect(readFileSync(join(dir, "sitesync.yaml"), "utf8")).toBe(handWritten);
    expect(sandbox.requests).toHaveLength(0);

    const forced = await sitesync(["export", "--out", "sitesync.yaml", "--force"], { env, cwd: dir });
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(dir, "sitesync.yaml"), "utf8")).toContain("  - domain: locked.example.com\n");
  });

  it("writes to stdout with --out -, and nothing else there", async () => {
    const dir = workdir();
    const result = await sitesync(["export", "--out", "-"], { env, cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.startsWith("# yaml-language-server: $schema=")).toBe(true);
    expect(result.stdout).toContain("  - domain: locked.example.com\n");
    expect(result.stderr).toMatch(/^Exported \d+ websites\.\n$/);
  });
});

describe("a password that must be sent but is not set (DESIGN §2, §7: planned and flagged, never an error)", () => {
  const config = `${HEADER}websites:
  - domain: locked.example.com
    privacy: password
  - domain: brand-new.example.net   # a create must send a password
    privacy: password
  - domain: site-00001.example.com
    privacy: password
`;

  it("plans and flags each change at the website's line, naming what to set; apply refuses them before any write", async () => {
    // site-00001 is private with no password stored: becoming password-protected needs one.
    expect(sandbox.store.findWebsite("site-00001.example.com")).toMatchObject({ privacy: 1, password: null });
    const dir = workdir({ "sitesync.yaml": config });
    const plan = await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir });
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain(
      '! needs a password (it is created with privacy password): add "password: ${STATS_PASSWORD}" to this website (sitesync.yaml:6:13) or to defaults',
    );
    expect(plan.stdout).toContain(
      '! needs a password (it becomes password-protected and the account stores no password for it): add "password: ${STATS_PASSWORD}" to this website (sitesync.yaml:8:13)',
    );
    sandbox.resetLog();
    const apply = await sitesync(["apply", "--auto-approve"], { env, cwd: dir });
    expect(apply.code, apply.stderr).toBe(4);
    expect(apply.stdout).toContain("skipped create brand-new.example.net: needs a password (it is created with privacy password)");
    expect(apply.stdout).toContain("skipped update site-00001.example.com (id 1): needs a password (it becomes password-protected");
    expect(writes()).toEqual([]);
    expect(sandbox.store.findWebsite("brand-new.example.net")).toBeUndefined();
    expect(sandbox.store.findWebsite("site-00001.example.com")).toMatchObject({ privacy: 1 });
  });

  it("keeps a stored password with --sync-write-only, which sends only what the config sets (issue 18)", async () => {
    const dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: locked.example.com\n    privacy: password\n` });
    const kept = await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir });
    expect(kept.code, kept.stderr).toBe(0);
    const sync = await sitesync(["plan", "--sync-write-only", "--detailed-exitcode"], { env, cwd: dir });
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stderr).not.toContain("password");
  });
});

describe("validate needs no secret (DESIGN §2)", () => {
  const config = `${HEADER}websites:\n  - domain: example.com\n    privacy: password\n    password: \${STATS_PASSWORD}\n`;

  it("passes with a note for an unset variable; --strict-env, plan and apply make it an error", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    const note = await sitesync(["validate"], { cwd: dir });
    expect(note.code, note.stderr).toBe(0);
    expect(note.stderr).toBe(
      "sitesync.yaml:6:15 (warning) websites[0].password: environment variable STATS_PASSWORD is not set: plan and apply need it (--strict-env makes this an error)\n",
    );
    expect(note.stdout).toBe("sitesync.yaml is valid: 1 website.\n");

    const error =
      "sitesync.yaml:6:15 websites[0].password: environment variable STATS_PASSWORD is not set; set it, or give a default with ${STATS_PASSWORD:-value}\n";
    const strict = await sitesync(["validate", "--strict-env"], { cwd: dir });
    expect(strict.code).toBe(1);
    expect(strict.stderr.startsWith(error)).toBe(true);
    sandbox.resetLog();
    const planned = await sitesync(["plan"], { env, cwd: dir });
    expect(planned.code).toBe(1);
    expect(planned.stderr.startsWith(error)).toBe(true);
    expect(sandbox.requests).toHaveLength(0);

    const set = await sitesync(["validate", "--strict-env"], { cwd: dir, env: { STATS_PASSWORD: "pw-from-the-vault" } });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toBe("");
  });
});
