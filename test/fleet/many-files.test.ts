/**
 * One account over many files (DESIGN §2 "Many files, many accounts"), as a user runs it: the real CLI against the sandbox over
 * real HTTP. The root includes one file per client; validate checks them all offline, plan and apply see
 * every file, and a saved plan follows an edit of any of them.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync } from "../helpers/cli.ts";
import { writeFiles } from "../helpers/files.ts";

let sandbox: Sandbox;
let dir: string;

const write = (files: Record<string, string>): void => writeFiles(dir, files);

beforeEach(async () => {
  sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "acme.com" }, { domain: "stray.example.org" }] });
  dir = mkdtempSync(join(tmpdir(), "sitesync-many-"));
  write({
    "sitesync.yaml": `version: 1\nwebsites_url: ${sandbox.url}\npolicy: { prune: true, max_deletes: 5 }\ndefaults: { exclude_bots: true }\ninclude: ["clients/*.yaml"]\n`,
    "clients/acme.yaml": "defaults: { email: true }\nwebsites:\n  - domain: acme.com\n  - domain: shop.acme.com\n    privacy: private\n",
    "clients/globex.yaml": "websites:\n  - domain: globex.com\n",
  });
});
afterEach(() => sandbox.close());

const env = () => ({ SITESYNC_API_KEY: sandbox.apiKey });

describe("a root file and one file per client", () => {
  it("validates every file offline, each error at its own file:line:col, a duplicate naming both places", async () => {
    const ok = await sitesync(["validate"], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    write({
      "clients/globex.yaml": "websites:\n  - domain: globex.com\n    privacy: secret\n  - domain: acme.com\n",
    });
    const bad = await sitesync(["validate"], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("clients/globex.yaml:3:14 websites[0].privacy: must be one of public, private, password");
    expect(bad.stderr).toContain(
      'clients/globex.yaml:4:13 websites[1].domain: duplicate website "acme.com": already listed at clients/acme.yaml:3:13',
    );
    expect(sandbox.requests).toHaveLength(0);
  });

  it("refuses a client file that is a symbolic link, at the include's line, rather than leave its websites unmanaged", async () => {
    write({ "other/s.yaml": "websites:\n  - domain: stray.example.org\n" });
    symlinkSync("../other/s.yaml", join(dir, "clients/link.yaml"));
    const validate = await sitesync(["validate"], { cwd: dir });
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain(
      'sitesync.yaml:5:11 include[0]: "clients/*.yaml" matches clients/link.yaml, a symbolic link: include regular files inside this folder (copy the file, or include its real path if it is inside this folder)',
    );
    // With prune on, skipping it would propose deleting stray.example.org: the plan stops before any request.
    const plan = await sitesync(["plan"], { cwd: dir, env: env() });
    expect(plan.code).toBe(1);
    expect(plan.stdout).not.toContain("delete");
    expect(sandbox.requests).toHaveLength(0);
  });

  it("plans every file against the account, applies, and then plans no changes", async () => {
    const plan = await sitesync(["plan"], { cwd: dir, env: env() });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`Account: ${sandbox.url}`);
    expect(plan.stdout).toContain("+ create  shop.acme.com");
    expect(plan.stdout).toContain("+ create  globex.com");
    expect(plan.stdout).toContain("- delete  stray.example.org");
    const apply = await sitesync(["apply", "--auto-approve"], { cwd: dir, env: env() });
    expect(apply.code, apply.stderr).toBe(0);
    expect(
      sandbox.store
        .websites()
        .map((w) => w.domain)
        .sort(),
    ).toEqual(["acme.com", "globex.com", "shop.acme.com"]);
    const again = await sitesync(["plan", "--detailed-exitcode"], { cwd: dir, env: env() });
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain("No changes.");
  });

  it("refuses a saved plan once an included file changed", async () => {
    const saved = await sitesync(["plan", "--out", "plan.json"], { cwd: dir, env: env() });
    expect(saved.code, saved.stderr).toBe(0);
    write({ "clients/globex.yaml": "websites:\n  - domain: globex.com\n    email: true\n" });
    const apply = await sitesync(["apply", "plan.json", "--auto-approve"], { cwd: dir, env: env() });
    expect(apply.code).toBe(4);
    expect(apply.stderr).toContain("sitesync.yaml or a file it includes changed since the plan was saved");
    const shown = await sitesync(["show", "plan.json"], { cwd: dir });
    expect(shown.stderr).toContain("note: sitesync.yaml or a file it includes changed since this plan was made");
    expect(sandbox.store.websites().map((w) => w.domain)).not.toContain("globex.com");
  });

  it("--changed-since follows an edit inside an included file, reading only the names it touches; a saved plan re-plans at its commit", async () => {
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args], {
        cwd: dir,
        stdio: "ignore",
      });
    // An account of 1,000 more websites: the touched name's lookup costs less than the full read's 11 pages.
    await sandbox.close();
    sandbox = await startSandbox({ rateLimit: 0, seed: 1_000, websites: [{ domain: "acme.com" }, { domain: "stray.example.org" }] });
    write({
      "sitesync.yaml": `version: 1\nwebsites_url: ${sandbox.url}\npolicy: { prune: true, max_deletes: 5 }\ninclude: ["clients/*.yaml"]\n`,
    });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-q", "-m", "base");
    write({ "clients/globex.yaml": "websites:\n  - domain: globex.com\n  - domain: labs.globex.com\n" });
    const plan = await sitesync(["plan", "--changed-since", "HEAD", "--out", "plan.json"], { cwd: dir, env: env() });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/Scoped to the change since HEAD \(\w+\): only the 1 website it touches was read and compared\./);
    expect(plan.stdout).toContain("+ create  labs.globex.com");
    // Not the untouched files' entries, nor the stray website a full read with prune would delete.
    expect(plan.stdout).not.toMatch(/shop\.acme\.com|stray\.example\.org/);
    // The saved plan is confirmed over the same change, read at the commit it recorded, after HEAD moved on.
    git("add", "-A");
    git("commit", "-q", "-m", "labs");
    sandbox.resetLog();
    const apply = await sitesync(["apply", "plan.json", "--auto-approve"], { cwd: dir, env: env() });
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(sandbox.stats()).toMatchObject({ listRequests: 2, writeRequests: 1 });
    expect(sandbox.store.websites().map((w) => w.domain)).toEqual(expect.arrayContaining(["labs.globex.com", "stray.example.org"]));
  });
});
