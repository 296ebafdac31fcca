/**
 * `adopt` on a config of many files and accounts (DESIGN §2, §7), as a user runs it: the real CLI
 * against sandboxes over real HTTP. Each entry is edited in the file that holds it, comments intact, and only
 * files that change are written; new websites go to `--into FILE` (or the root's `websites`), which must be
 * a file of the config and of the website's account; a refusal anywhere writes nothing.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync } from "../helpers/cli.ts";
import { writeFiles } from "../helpers/files.ts";

let dir: string;

const write = (files: Record<string, string>): void => writeFiles(dir, files);

const read = (name: string) => readFileSync(join(dir, name), "utf8");

/** A change made in the account the way the web UI makes it: a form post to the API. */
async function ui(sandbox: Sandbox, method: "PUT" | "POST", path: string, form: Record<string, string>): Promise<void> {
  const response = await fetch(`${sandbox.url}/api/v1/websites${path}`, {
    method,
    headers: { Authorization: `Bearer ${sandbox.apiKey}`, Accept: "application/json" },
    body: new URLSearchParams(form),
  });
  expect(response.ok, await response.text()).toBe(true);
}

const idOf = (sandbox: Sandbox, domain: string) => sandbox.store.findWebsite(domain)!.id;

describe("one account over a root and two client files", () => {
  let sandbox: Sandbox;
  const A = "# Client A\nwebsites:\n  - domain: a.example.com   # the shop\n";
  const B =
    "# Client B: keep this comment\nwebsites:\n  # main site\n  - domain: b.example.com\n    privacy: public   # stays public, says marketing\n\n  - domain: blog.b.example.com\n    privacy: password\n    password: ${BLOG_PASSWORD}\n";
  let root: string;
  const env = () => ({ SITESYNC_API_KEY: sandbox.apiKey });

  beforeEach(async () => {
    sandbox = await startSandbox({
      rateLimit: 0,
      websites: [
        { domain: "a.example.com" },
        { domain: "b.example.com" },
        { domain: "blog.b.example.com", privacy: 2, password: "blog-secret" },
      ],
    });
    dir = mkdtempSync(join(tmpdir(), "sitesync-update-many-"));
    root = `version: 1\nwebsites_url: ${sandbox.url}\npolicy: { prune: false }\ninclude: ["clients/*.yaml"]   # one file per client\n`;
    write({ "sitesync.yaml": root, "clients/a.yaml": A, "clients/b.yaml": B, "elsewhere.yaml": "version: 1\nwebsites: []\n" });
  });
  afterEach(() => sandbox.close());

  it("edits a drifted website in the file that holds it, only that file, comments intact; then plan has no changes", async () => {
    await ui(sandbox, "PUT", `/${idOf(sandbox, "b.example.com")}`, { privacy: "1" });
    // No secret needed: the blog's ${BLOG_PASSWORD} is write-only.
    const update = await sitesync(["adopt", "sitesync.yaml"], { cwd: dir, env: env() });
    expect(update.code, update.stderr).toBe(0);
    expect(read("clients/b.yaml")).toBe(B.replace("privacy: public   #", "privacy: private   #"));
    expect(read("clients/a.yaml")).toBe(A);
    expect(read("sitesync.yaml")).toBe(root);
    expect(update.stdout).toContain("--- clients/b.yaml\n+++ clients/b.yaml\n");
    expect(update.stdout).not.toContain("a.yaml");
    expect(update.stderr).toBe(
      "Updated clients/b.yaml: websites 1 updated, 0 added, 0 removed.\nUpdated 1 of 3 files: websites 1 updated, 0 added, 0 removed, 0 unmanaged.\n",
    );
    const plan = await sitesync(["plan", "--detailed-exitcode"], { cwd: dir, env: { ...env(), BLOG_PASSWORD: "blog-secret" } });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain("No changes.");
  });

  it("--add-unlisted --into puts a new live website in that file, and without --into in the root's websites", async () => {
    await ui(sandbox, "POST", "", { domain: "new.example.com", privacy: "1" });
    const counted = await sitesync(["adopt", "sitesync.yaml"], { cwd: dir, env: env() });
    expect(counted.code, counted.stderr).toBe(0);
    expect(counted.stderr).toBe(
      "All 3 files already match the account: websites 0 updated, 0 added, 0 removed, 1 unmanaged; --add-unlisted adds the unmanaged websites.\n",
    );

    const dry = await sitesync(["adopt", "sitesync.yaml", "--add-unlisted", "--into", "clients/a.yaml", "--dry-run"], {
      cwd: dir,
      env: env(),
    });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("+  - domain: new.example.com\n+    privacy: private\n");
    expect(dry.stderr).toContain("clients/a.yaml would be updated: websites 0 updated, 1 added, 0 removed.\n");
    expect(read("clients/a.yaml")).toBe(A);

    const into = await sitesync(["adopt", "sitesync.yaml", "--add-unlisted", "--into", "clients/a.yaml"], {
      cwd: dir,
      env: env(),
    });
    expect(into.code, into.stderr).toBe(0);
    expect(read("clients/a.yaml")).toMatch(
      /^# Client A\nwebsites:\n {2}- domain: a\.example\.com {3}# the shop\n {2}- domain: new\.example\.com\n {4}privacy: private\n/,
    );
    expect(read("sitesync.yaml")).toBe(root);
    expect(read("clients/b.yaml")).toBe(B);
    const plan = await sitesync(["plan", "--detailed-exitcode"], { cwd: dir, env: { ...env(), BLOG_PASSWORD: "blog-secret" } });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);

    // Another one, without --into: the root, which lists none, gets a websites key.
    write({ "clients/a.yaml": A });
    const toRoot = await sitesync(["adopt", "sitesync.yaml", "--add-unlisted"], { cwd: dir, env: env() });
    expect(toRoot.code, toRoot.stderr).toBe(0);
    const rootAfter = `${root}websites:\n  - domain: new.example.com\n    privacy: private\n`;
    expect(read("sitesync.yaml").slice(0, rootAfter.length)).toBe(rootAfter);
    expect(read("clients/a.yaml")).toBe(A);
    expect(toRoot.stderr).toContain("Updated sitesync.yaml: websites 0 updated, 1 added, 0 removed.\n");
    const again = await sitesync(["plan", "--detailed-exitcode"], { cwd: dir, env: { ...env(), BLOG_PASSWORD: "blog-secret" } });
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("refuses --into a file the root does not include, naming where new websites may go, before any request", async () => {
    await ui(sandbox, "POST", "", { domain: "new.example.com" });
    const requests = sandbox.requests.length;
    const update = await sitesync(["adopt", "sitesync.yaml", "--add-unlisted", "--into", "elsewhere.yaml"], {
      cwd: dir,
      env: env(),
    });
    expect(update.code).toBe(1);
    expect(update.stderr).toContain(
      '--into elsewhere.yaml: not a file of this config (sitesync.yaml does not include it); new websites go to one of sitesync.yaml, clients/a.yaml, clients/b.yaml. To start a client file, create one with "websites: []" at a path sitesync.yaml\'s include: globs match (clients/*.yaml)',
    );
    expect(sandbox.requests.length).toBe(requests);
    expect([read("sitesync.yaml"), read("clients/a.yaml"), read("clients/b.yaml"), read("elsewhere.yaml")]).toEqual([
      root,
      A,
      B,
      "version: 1\nwebsites: []\n",
    ]);
    const without = await sitesync(["export", "--into", "clients/a.yaml"], { cwd: dir, env: env() });
    expect(without.code).toBe(1);
    expect(without.stderr).toContain("--add-unlisted, --into, --account and --dry-run go with --update FILE");
    const single = await sitesync(["adopt", "elsewhere.yaml", "--into", "clients/a.yaml"], {
      cwd: dir,
      env: { ...env(), SITESYNC_WEBSITES_URL: sandbox.url },
    });
    expect(single.code).toBe(1);
    expect(single.stderr).toContain(
      "--into clients/a.yaml: the config is the one file elsewhere.yaml, where new websites go; leave out --into",
    );
  });

  it("refuses an entry it cannot update at its file:line:col, and then writes no file at all", async () => {
    write({ "clients/a.yaml": "websites:\n  - domain: a.example.com\n    privacy: ${A_PRIVACY}\n" });
    await ui(sandbox, "PUT", `/${idOf(sandbox, "a.example.com")}`, { privacy: "1" });
    await ui(sandbox, "PUT", `/${idOf(sandbox, "b.example.com")}`, { privacy: "1" });
    const update = await sitesync(["adopt", "sitesync.yaml"], { cwd: dir, env: { ...env(), A_PRIVACY: "public" } });
    expect(update.code).toBe(1);
    expect(update.stderr).toContain("clients/a.yaml:3:14 websites[0].privacy: the live value differs, but this value comes from a ${VAR}");
    expect(update.stderr).toContain("The config cannot be updated safely: no file was changed.");
    expect(read("clients/b.yaml")).toBe(B);
  });
});

const EU_KEY = "EuKey0000000000000000000000000000000000000000000000000000000001";
const US_KEY = "UsKey0000000000000000000000000000000000000000000000000000000002";

describe("two accounts on two servers", () => {
  let eu: Sandbox;
  let us: Sandbox;
  const EU_A = "account: eu\nwebsites:\n  - domain: a.eu   # first client\n";
  const EU_B = "account: eu\nwebsites:\n  - domain: b.eu\n    email: false   # reports off\n";
  const US = "account: us\n# US clients\nwebsites:\n  - domain: c.com\n    privacy: public\n";
  const keys = { SITESYNC_EU_API_KEY: EU_KEY, SITESYNC_US_API_KEY: US_KEY };
  let root: string;

  beforeEach(async () => {
    eu = await startSandbox({ apiKey: EU_KEY, rateLimit: 0, websites: [{ domain: "a.eu" }, { domain: "b.eu", email: 0 }] });
    us = await startSandbox({ apiKey: US_KEY, rateLimit: 0, websites: [{ domain: "c.com" }] });
    dir = mkdtempSync(join(tmpdir(), "sitesync-update-fleet-"));
    root = [
      "version: 1",
      "accounts:",
      "  eu:",
      `    websites_url: ${eu.url}`,
      "    api_key_env: SITESYNC_EU_API_KEY",
      "  us:",
      `    websites_url: ${us.url}`,
      "    api_key_env: SITESYNC_US_API_KEY",
      'include: ["clients/*.yaml"]',
      "",
    ].join("\n");
    write({ "sitesync.yaml": root, "clients/eu-a.yaml": EU_A, "clients/eu-b.yaml": EU_B, "clients/us.yaml": US });
  });
  afterEach(async () => {
    await eu.close();
    await us.close();
  });

  it("each account's drift edits its own files, grouped per account; then both plan no changes; no key shows", async () => {
    await ui(eu, "PUT", `/${idOf(eu, "b.eu")}`, { email: "1" });
    await ui(us, "PUT", `/${idOf(us, "c.com")}`, { privacy: "1" });
    const update = await sitesync(["adopt", "sitesync.yaml"], { cwd: dir, env: keys });
    expect(update.code, update.stderr).toBe(0);
    expect(read("clients/eu-b.yaml")).toBe(EU_B.replace("email: false", "email: true"));
    expect(read("clients/us.yaml")).toBe(US.replace("public", "private"));
    expect(read("clients/eu-a.yaml")).toBe(EU_A);
    expect(read("sitesync.yaml")).toBe(root);
    expect(update.stdout).toContain(`── account eu (${eu.url}) ──`);
    expect(update.stdout).toContain(`── account us (${us.url}) ──`);
    expect(update.stdout).toContain("Accounts: eu: changes in 1 file; us: changes in 1 file.");
    expect(update.stderr).toContain("[eu] Updated clients/eu-b.yaml: websites 1 updated, 0 added, 0 removed.\n");
    expect(update.stderr).toContain("[us] Updated clients/us.yaml: websites 1 updated, 0 added, 0 removed, 0 unmanaged.\n");
    for (const key of [EU_KEY, US_KEY]) expect(update.stdout + update.stderr).not.toContain(key);
    const plan = await sitesync(["plan", "--detailed-exitcode"], { cwd: dir, env: keys });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout.match(/No changes\./g)).toHaveLength(2);
  });

  it("needs each account's address: an unset ${VAR} there is an error at its line, before any request", async () => {
    write({ "sitesync.yaml": root.replace(`websites_url: ${us.url}`, "websites_url: ${US_URL}") });
    const unset = await sitesync(["adopt", "sitesync.yaml"], { cwd: dir, env: keys });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toBe(
      "sitesync.yaml:7:19 accounts.us.websites_url: environment variable US_URL is not set; set it, or give a default with ${US_URL:-value}\n1 error in the config: nothing was sent to the API.\n",
    );
    expect(eu.requests.length + us.requests.length).toBe(0);
    const set = await sitesync(["adopt", "sitesync.yaml"], { cwd: dir, env: { ...keys, US_URL: us.url } });
    expect(set.code, set.stderr).toBe(0);
  });

  it("a new website goes to a file of its own account: --into another account's file, or none, is refused", async () => {
    await ui(eu, "POST", "", { domain: "new.eu" });
    const other = await sitesync(["adopt", "sitesync.yaml", "--add-unlisted", "--account", "eu", "--into", "clients/us.yaml"], {
      cwd: dir,
      env: keys,
    });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(
      "--into clients/us.yaml: the file holds websites of account us, and this run updates account eu (clients/eu-a.yaml, clients/eu-b.yaml): pass --into one of those files",
    );

    // A client file not made yet: only the account's own files are named, and how to start one.
    await ui(us, "POST", "", { domain: "first.com" });
    const requests = us.requests.length;
    const fresh = ["adopt", "sitesync.yaml", "--add-unlisted", "--account", "us", "--into", "clients/newclient.yaml"];
    const missing = await sitesync(fresh, { cwd: dir, env: keys });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      '--into clients/newclient.yaml: no such file; new websites of account us go to clients/us.yaml. To start a client file, create it with "account: us" and "websites: []" at a path sitesync.yaml\'s include: globs match (clients/*.yaml)',
    );
    expect(us.requests.length).toBe(requests);
    // Doing as it says puts the new website there.
    write({ "clients/newclient.yaml": "account: us\nwebsites: []\n" });
    const started = await sitesync(fresh, { cwd: dir, env: keys });
    expect(started.code, started.stderr).toBe(0);
    expect(read("clients/newclient.yaml")).toMatch(/^account: us\nwebsites:\n {2}- domain: first\.com\n/);
    expect(read("clients/us.yaml")).toBe(US);

    // The root holds no account's websites when there are several: eu refuses, us (nothing to add) goes on.
    const none = await sitesync(["adopt", "sitesync.yaml", "--add-unlisted"], { cwd: dir, env: keys });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      "[eu] error: 1 live website of account eu is listed in no file, and the root file holds no account's websites (it has several accounts): pass --into one of its files (clients/eu-a.yaml, clients/eu-b.yaml)",
    );
    expect([read("sitesync.yaml"), read("clients/eu-a.yaml"), read("clients/eu-b.yaml"), read("clients/us.yaml")]).toEqual([
      root,
      EU_A,
      EU_B,
      US,
    ]);

    const into = await sitesync(["adopt", "sitesync.yaml", "--add-unlisted", "--into", "clients/eu-a.yaml"], {
      cwd: dir,
      env: keys,
    });
    expect(into.code, into.stderr).toBe(0);
    expect(read("clients/eu-a.yaml")).toMatch(/^account: eu\nwebsites:\n {2}- domain: a\.eu {3}# first client\n {2}- domain: new\.eu\n/);
    expect(read("clients/us.yaml")).toBe(US);
    const plan = await sitesync(["plan", "--detailed-exitcode"], { cwd: dir, env: keys });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    // One file per account: each account's new website goes to its own.
    await ui(eu, "POST", "", { domain: "newer.eu" });
    await ui(us, "POST", "", { domain: "new.com" });
    const both = ["--into", "clients/eu-b.yaml", "--into", "clients/us.yaml"];
    const twice = await sitesync(["adopt", "sitesync.yaml", "--add-unlisted", ...both, "--into", "clients/eu-a.yaml"], {
      cwd: dir,
      env: keys,
    });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain(
      "--into names 2 files of account eu (clients/eu-b.yaml, clients/eu-a.yaml): its new websites go to one file",
    );
    expect(read("clients/us.yaml")).toBe(US);
    const each = await sitesync(["adopt", "sitesync.yaml", "--add-unlisted", ...both], { cwd: dir, env: keys });
    expect(each.code, each.stderr).toBe(0);
    expect(read("clients/eu-b.yaml")).toContain("  - domain: newer.eu\n");
    expect(read("clients/us.yaml")).toContain("  - domain: new.com\n");
    const after = await sitesync(["plan", "--detailed-exitcode"], { cwd: dir, env: keys });
    expect(after.code, after.stdout + after.stderr).toBe(0);
  });
});
