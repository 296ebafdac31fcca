/**
 * `export` writes the account as a config that plans to no changes with no secret set (DESIGN §7); it never
 * destroys a file, writes it whole, and writes live `${...}` text as a literal, never as a variable to read.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, workdir } from "../helpers/cli.ts";

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

describe("export", () => {
  it("round-trips with no secret set: the exported file plans to no changes, then an edit applies and converges", async () => {
    const dir = workdir();
    const exported = await sitesync(["export", "--projects", "--out", "sitesync.yaml"], { env, cwd: dir });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toBe("Exported 303 websites and 2 projects to sitesync.yaml.\n");
    const file = join(dir, "sitesync.yaml");
    const text = readFileSync(file, "utf8");
    // This checkout's CLI is outside the temporary folder, as another project's node_modules would be.
    expect(text.startsWith("# No $schema modeline:")).toBe(true);
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
    expect(result.stdout.startsWith("# No $schema modeline:")).toBe(true);
    expect(result.stdout).toContain("  - domain: locked.example.com\n");
    expect(result.stderr).toMatch(/^Exported \d+ websites\.\n$/);
  });
});

describe("export --out", () => {
  it("writes export --out whole, with no temporary file left", async () => {
    const own = await startSandbox({ rateLimit: 0, websites: [{ domain: "drift.example.com", privacy: 1 }] });
    try {
      const dir = workdir();
      writeFileSync(join(dir, "keep.txt"), "");
      const ownEnv = { SITESYNC_API_KEY: own.apiKey, SITESYNC_WEBSITES_URL: own.url };
      const result = await sitesync(["export", "--out", "sitesync.yaml"], { env: ownEnv, cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(readFileSync(join(dir, "sitesync.yaml"), "utf8")).toContain("domain: drift.example.com");
      expect(readdirSync(dir).sort()).toEqual(["keep.txt", "sitesync.yaml"]);
    } finally {
      await own.close();
    }
  });
});

describe("values read from the environment", () => {
  const KEY = "K3yK3yK3ySecretApiKeyValue0123456789abcdefABCDEF0123456789abcdef";

  it("export writes live `${...}` text as literals: planning the file gives no changes and never reads the variables", async () => {
    const planted = await startSandbox({
      apiKey: KEY,
      rateLimit: 0,
      websites: [{ domain: "planted.example.com" }],
      projects: [{ project: "${SITESYNC_API_KEY}" }, { project: "home-${HOME}" }],
    });
    try {
      const dir = workdir();
      const env = { SITESYNC_API_KEY: KEY, SITESYNC_WEBSITES_URL: planted.url, SITESYNC_PROJECTS_URL: planted.url };
      const exported = await sitesync(["export", "--projects", "--out", "sitesync.yaml"], { env, cwd: dir });
      expect(exported.code, exported.stderr).toBe(0);
      const text = readFileSync(join(dir, "sitesync.yaml"), "utf8");
      expect(text).toContain("project: $${SITESYNC_API_KEY}");
      expect(text).toContain("project: home-$${HOME}");
      const plan = await sitesync(["plan", "--detailed-exitcode", "--verbose"], { env, cwd: dir });
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      expect(plan.stdout).toContain("No changes.");
      for (const output of [exported.stdout, exported.stderr, text, plan.stdout, plan.stderr]) {
        expect(output.includes(KEY), "export and plan contains a secret").toBe(false);
        expect(output).not.toContain(`home-${process.env.HOME ?? "/"}`);
      }
    } finally {
      await planted.close();
    }
  });
});
