/**
 * An account can hold what no config can (API-NOTES §2.4: exclude_ips are free text, domains are compared
 * raw): `export` leaves that out, says so in the file and on stderr, and the file still validates and plans
 * to no changes (DESIGN §7). Before, the file failed `validate`, which stops every plan of every website in it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync, workdir } from "../helpers/cli.ts";

let sandbox: Sandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await startSandbox({
    rateLimit: 0,
    websites: [
      { domain: "office.example.com", exclude_ips: ["192.0.2.7", "10.0.0.1 # office"] },
      { domain: "home.example.com", exclude_ips: ["${HOME}"] },
      { domain: "twice.example.com." },
      { domain: "twice.example.com", exclude_ips: ["2001:db8::/32"] },
      { domain: "fine.example.com", exclude_ips: ["198.51.100.0/24"] },
    ],
  });
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
});
afterAll(() => sandbox.close());

describe("export of values no config can hold", () => {
  it("leaves out a domain or an exclude_ips line that holds the API key: written masked, the file would plan a create", async () => {
    const key = "leftoutkey0123456789abcdefghijklmnop";
    const keyed = await startSandbox({
      rateLimit: 0,
      apiKey: key,
      websites: [
        { domain: `${key}.example.com` },
        { domain: "ips.example.com", exclude_ips: ["192.0.2.1", key] },
        { domain: "ok.example.com" },
      ],
    });
    try {
      const keyEnv = { SITESYNC_API_KEY: key, SITESYNC_WEBSITES_URL: keyed.url };
      const dir = workdir();
      const exported = await sitesync(["export", "--out", "sitesync.yaml"], { env: keyEnv, cwd: dir });
      expect(exported.code, exported.stderr).toBe(0);
      const text = readFileSync(join(dir, "sitesync.yaml"), "utf8");
      for (const output of [exported.stdout, exported.stderr, text]) expect(output).not.toContain(key);
      expect(exported.stderr).toMatch(/\(id 1\) is left out of the file: its domain holds a secret of this run/);
      expect(exported.stderr).toMatch(
        /ips\.example\.com \(id 2\) has its exclude_ips left out: the account's line holds a secret of this run/,
      );
      expect(entryOf(text, "ips.example.com")).not.toContain("exclude_ips");
      const plan = await sitesync(["plan", "--detailed-exitcode"], { env: keyEnv, cwd: dir });
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      expect(`${plan.stdout}${plan.stderr}`).not.toContain(key);
    } finally {
      await keyed.close();
    }
  });

  it("leaves them out, says where and why, and the file validates and plans to no changes", async () => {
    const dir = workdir();
    const exported = await sitesync(["export", "--out", "sitesync.yaml"], { env, cwd: dir });
    expect(exported.code, exported.stderr).toBe(0);
    const warnings = exported.stderr.split("\n").filter((line) => line.startsWith("warning: "));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^warning: home\.example\.com \(id \d+\) has its exclude_ips left out: the account's line "\$\{HOME\}" is not an IP address/,
      ),
      expect.stringMatching(
        /^warning: office\.example\.com \(id \d+\) has its exclude_ips left out: the account's line "10\.0\.0\.1 # office"/,
      ),
      expect.stringMatching(/^warning: twice\.example\.com\. \(id \d+\) is left out of the file: a second copy of twice\.example\.com/),
    ]);
    expect(exported.stderr).toContain("Exported 4 websites to sitesync.yaml.");

    const text = readFileSync(join(dir, "sitesync.yaml"), "utf8");
    expect(text).toContain("live account: 4 websites; 1 website left out (below), 2 exclude_ips lists left out.");
    expect(text).toMatch(/^# {3}twice\.example\.com\. \(id \d+\): a second copy/m);
    // The comment stands above the entry it is about, and the entry sets no exclude_ips: they are unmanaged.
    expect(text).toMatch(
      / {2}# exclude_ips left out: the account's line "10\.0\.0\.1 # office"[^\n]*\n {2}- domain: office\.example\.com\n/,
    );
    expect(entryOf(text, "office.example.com")).not.toContain("exclude_ips");
    expect(entryOf(text, "twice.example.com")).toContain("exclude_ips: [ 2001:db8::/32 ]");
    expect(entryOf(text, "fine.example.com")).toContain("exclude_ips: [ 198.51.100.0/24 ]");
    expect(text.match(/- domain: twice\.example\.com/g)).toHaveLength(1);

    const valid = await sitesync(["validate"], { cwd: dir });
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stderr).not.toContain("warning");
    const plan = await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain("No changes.");
    expect(plan.stdout).toContain("The account holds twice.example.com more than once");
  });

  it("warns with --quiet and when the file goes to stdout, which stays the file alone", async () => {
    const out = await sitesync(["export", "--out", "-", "--quiet"], { env, cwd: workdir() });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr.match(/^warning: /gm)).toHaveLength(3);
    expect(out.stdout).not.toContain("warning");
    expect(out.stdout).toContain("# exclude_ips left out:");
  });
});

/** The lines of one website's entry, from its `- domain:` to the next. */
function entryOf(text: string, domain: string): string {
  const start = text.indexOf(`- domain: ${domain}\n`);
  const end = text.indexOf("- domain:", start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}
