/** `export` writes the account as a config that plans to no changes; edited, it applies and converges. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.ts";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.ts";
import { sitesync, workdir } from "./helpers.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({
    rateLimit: 0,
    seed: 40,
    websites: [
      { domain: "locked.example.com", privacy: 2, password: "the-old-password", exclude_ips: ["2001:db8::/32", "192.0.2.1"] },
      { domain: "null-fields.example.com", privacy: null, email: null, exclude_bots: null },
    ],
    projects: [{ project: "example.com" }, { project: "seo.example.org" }],
  });
});
afterAll(() => sandbox.close());

describe("export", () => {
  it("round-trips: the exported file is valid and plans to no changes, then an edit applies and converges", async () => {
    const dir = workdir();
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url, SITESYNC_PROJECTS_URL: sandbox.url };
    const exported = await sitesync(["export", "--projects", "--out", "sitesync.yaml"], { env, cwd: dir });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain("SITESYNC_PASSWORD_LOCKED_EXAMPLE_COM");
    const file = join(dir, "sitesync.yaml");
    const text = readFileSync(file, "utf8");
    expect(text.startsWith("# yaml-language-server: $schema=")).toBe(true);
    expect(text).toContain("write-only");
    expect(text).not.toContain("the-old-password");

    // Every password-protected site reads its (write-only) password from a variable the header names.
    const variables = /# Password variables: (.*)/.exec(text)![1]!.split(", ");
    expect(variables).toContain("SITESYNC_PASSWORD_LOCKED_EXAMPLE_COM");
    const withPassword = { ...env, ...Object.fromEntries(variables.map((v) => [v, "whatever-it-is-now"])) };
    const loaded = loadConfig(file, { env: withPassword });
    expect(loaded.ok && loaded.config.websites.length).toBe(42);
    const domains = loaded.ok ? loaded.config.websites.map((w) => w.domain) : [];
    expect(domains).toEqual([...domains].sort((a, b) => a.localeCompare(b)));

    const clean = await sitesync(["plan", "--detailed-exitcode"], { env: withPassword, cwd: dir });
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    expect(clean.stdout).toContain("No changes.");

    const edited = text
      .replace(/(- domain: null-fields\.example\.com\n\s+privacy:) public/, "$1 private")
      .replace("\nprojects:", "\n  - domain: added.example.net\nprojects:");
    writeFileSync(file, edited);
    const review = await sitesync(["plan", "--detailed-exitcode"], { env: withPassword, cwd: dir });
    expect(review.code).toBe(2);
    expect(review.stdout).toContain("privacy: public → private");
    expect(review.stdout).toContain("+ create  added.example.net");
    const applied = await sitesync(["apply", "--auto-approve"], { env: withPassword, cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    const after = await sitesync(["plan", "--detailed-exitcode"], { env: withPassword, cwd: dir });
    expect(after.code).toBe(0);
  });
});
