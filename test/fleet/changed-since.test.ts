/**
 * Plans that follow the change (DESIGN §3) on a fleet: a root file with `include:` and two
 * accounts on two sandboxes, in a git repository. The base is the whole config as the base commit holds it
 * (the root, the files its globs matched there, their bytes there), and each account follows the change of
 * its own slice: only its touched names are read, an untouched account reads nothing, an entry moved
 * between files is no change. The real CLI against the sandboxes over real HTTP.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync } from "../helpers/cli.ts";
import { writeFiles } from "../helpers/files.ts";
import { git as gitIn } from "../helpers/git.ts";

const EU_KEY = "EuKey0000000000000000000000000000000000000000000000000000000001";
const US_KEY = "UsKey0000000000000000000000000000000000000000000000000000000002";
const SHOP_PW = "shop-rotated-Secret-1";

let eu: Sandbox;
let us: Sandbox;
let dir: string;

const git = (...args: string[]): string => gitIn(dir, ...args);

const write = (files: Record<string, string>): void => writeFiles(dir, files);

function commit(message: string): void {
  git("add", "-A");
  git("commit", "-q", "--allow-empty", "-m", message);
}

const ROOT = (euUrl: string, usUrl: string) =>
  [
    "version: 1",
    "accounts:",
    "  eu:",
    `    websites_url: ${euUrl}`,
    "    api_key_env: SITESYNC_EU_API_KEY",
    // The sandbox's 1,000 seeded websites are someone else's: prune never touches them.
    "    policy: { prune: true, ignore: [site-*] }",
    "  us:",
    `    websites_url: ${usUrl}`,
    "    api_key_env: SITESYNC_US_API_KEY",
    "policy: { prune: false, max_deletes: 5 }",
    'include: ["clients/*.yaml"]',
    "",
  ].join("\n");

const A = "account: eu\nwebsites:\n  - domain: a.eu\n  - domain: shop.a.eu\n    privacy: password\n    password: ${SHOP_PW}\n";
const B =
  "account: eu\nwebsites:\n  - domain: b.eu\n    email: false\n  - domain: blog.b.eu\n    exclude_params: [utm_source]\n  - domain: quiet.b.eu\n    email: true\n";
const C = "account: us\nwebsites:\n  - domain: c.com\n  - domain: d.com\n";

beforeEach(async () => {
  // 1,000 more websites each: a full read is 11 pages, so a scoped read shows in the request count.
  eu = await startSandbox({
    apiKey: EU_KEY,
    rateLimit: 0,
    seed: 1_000,
    websites: [
      { domain: "a.eu" },
      { domain: "shop.a.eu", privacy: 2, password: "shop-old-password" },
      { domain: "b.eu", email: 0 },
      { domain: "blog.b.eu", exclude_params: "utm_source" },
      // Drift the change does not touch: a scoped plan does not evaluate it.
      { domain: "quiet.b.eu", email: 0 },
    ],
  });
  us = await startSandbox({ apiKey: US_KEY, rateLimit: 0, seed: 1_000, websites: [{ domain: "c.com" }, { domain: "d.com", email: 1 }] });
  dir = mkdtempSync(join(tmpdir(), "sitesync-fleet-change-"));
  git("init", "-q");
  write({ "sitesync.yaml": ROOT(eu.url, us.url), "clients/a.yaml": A, "clients/b.yaml": B, "clients/c.yaml": C });
  commit("base");
});
afterEach(async () => {
  await eu.close();
  await us.close();
});

const env = { SITESYNC_EU_API_KEY: EU_KEY, SITESYNC_US_API_KEY: US_KEY, SHOP_PW };

/** The part of a fleet's text output about one account. */
function part(out: string, account: "eu" | "us"): string {
  const [before, after = ""] = out.split("── account us");
  return account === "eu" ? before! : after;
}

function expectNoSecret(...outputs: string[]): void {
  for (const output of outputs) for (const secret of [EU_KEY, US_KEY, SHOP_PW]) expect(output).not.toContain(secret);
}

describe("plan --changed-since on a fleet of included files", () => {
  it("reads only the touched names of the account whose files changed, nothing of the other, and sends the write-only edits", async () => {
    write({
      "clients/a.yaml": A.replace("password: ${SHOP_PW}", "password: ${SHOP_PW}\n    password_version: 2"),
      "clients/b.yaml": B.replace("email: false", "email: true").replace("[utm_source]", "[utm_source, fbclid]"),
    });
    commit("edit two clients of eu");

    const planned = await sitesync(["plan", "--changed-since", "HEAD~1"], { cwd: dir, env });
    expect(planned.code, planned.stderr).toBe(0);
    const euOut = part(planned.stdout, "eu");
    const usOut = part(planned.stdout, "us");
    // eu: one probe for meta.total and one search per touched website (3), never its 11 pages.
    expect(eu.stats()).toMatchObject({ listRequests: 4, writeRequests: 0 });
    expect(eu.requests.filter((r) => r.query.search !== undefined).map((r) => r.query.search)).toEqual(
      expect.arrayContaining(["b.eu", "blog.b.eu", "shop.a.eu"]),
    );
    expect(euOut).toMatch(/Scoped to the change since HEAD~1 \(\w+\): only the 3 websites it touches were read and compared\./);
    expect(euOut).toContain("~ update  b.eu");
    expect(euOut).toContain("exclude_params: [utm_source, fbclid], sent: changed since HEAD~1");
    expect(euOut).toMatch(/shop\.a\.eu \(id \d+\)\n {6}password: \(sensitive\), sent: rotated since HEAD~1/);
    expect(euOut).not.toMatch(/quiet\.b\.eu| a\.eu \(/);
    expect(euOut).toContain("Plan: 0 to create, 3 to update, 0 to delete");
    // us: its file did not change, so not one request, and the plan says why.
    expect(us.requests).toHaveLength(0);
    expect(usOut).toMatch(/Scoped to the change since HEAD~1 \(\w+\): it touches no website or project here, so none was read\./);
    expect(usOut).toContain("No changes.");
    expectNoSecret(planned.stdout, planned.stderr);
  });

  it("a reviewed plan of one account is applied over the very change it followed, even once HEAD~1 names another commit", async () => {
    write({ "clients/b.yaml": B.replace("[utm_source]", "[fbclid]") });
    commit("edit blog.b.eu");
    const saved = await sitesync(["plan", "--account", "eu", "--changed-since", "HEAD~1", "--out", "plan.json"], { cwd: dir, env });
    expect(saved.code, saved.stderr).toBe(0);
    expect(eu.stats().listRequests).toBe(2);
    // HEAD~1 now names the edit itself, whose change since is nothing: only the recorded commit finds the edit.
    commit("nothing");
    eu.resetLog();
    const applied = await sitesync(["apply", "--reviewed", "plan.json", "--account", "eu", "--auto-approve"], { cwd: dir, env });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(eu.stats()).toMatchObject({ listRequests: 2, writeRequests: 1 });
    expect(eu.store.findWebsite("blog.b.eu")?.exclude_params).toBe("fbclid");
    expectNoSecret(saved.stdout, saved.stderr, applied.stdout, applied.stderr, readFileSync(join(dir, "plan.json"), "utf8"));
  });

  it("a client file added, one deleted under prune, an entry moved between files: creates, deletes only the removed file's websites, moves nothing", async () => {
    rmSync(join(dir, "clients/a.yaml"));
    write({
      // quiet.b.eu moves from b.yaml to the new e.yaml unchanged; us's c.com from c.yaml to the new f.yaml.
      "clients/b.yaml": B.replace("  - domain: quiet.b.eu\n    email: true\n", ""),
      "clients/e.yaml": "account: eu\nwebsites:\n  - domain: quiet.b.eu\n    email: true\n  - domain: new.e.eu\n",
      "clients/c.yaml": "account: us\nwebsites:\n  - domain: d.com\n",
      "clients/f.yaml": "account: us\nwebsites:\n  - domain: c.com\n",
    });
    // Not committed: HEAD is the base, and the working tree (new files too) is now.
    const planned = await sitesync(["plan", "--changed-since", "HEAD"], { cwd: dir, env });
    expect(planned.code, planned.stderr).toBe(0);
    const euOut = part(planned.stdout, "eu");
    expect(euOut).toContain("+ create  new.e.eu");
    expect(euOut).toContain("- delete  a.eu");
    expect(euOut).toContain("- delete  shop.a.eu");
    expect(euOut).not.toContain("quiet.b.eu");
    expect(euOut).toContain("Plan: 1 to create, 0 to update, 2 to delete");
    expect(eu.stats().listRequests).toBe(4);
    expect(part(planned.stdout, "us")).toContain("it touches no website or project here, so none was read.");
    expect(us.requests).toHaveLength(0);

    const applied = await sitesync(["apply", "--changed-since", "HEAD", "--auto-approve"], { cwd: dir, env });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const domains = eu.store.websites().map((w) => w.domain);
    expect(domains).toEqual(expect.arrayContaining(["b.eu", "blog.b.eu", "quiet.b.eu", "new.e.eu"]));
    expect(domains).not.toEqual(expect.arrayContaining(["a.eu"]));
    expect(domains).not.toContain("shop.a.eu");
    // Only the removed file's websites: the 1,000 other websites of the account, unlisted, are still there.
    expect(domains).toHaveLength(1_000 + 4);
  });

  it("works in a shallow clone: the base is fetched and loaded once for both accounts, planned side by side", async () => {
    write({ "clients/b.yaml": B.replace("[utm_source]", "[fbclid]"), "clients/c.yaml": `${C}  - domain: zulu.org\n` });
    commit("one edit per account");
    const base = git("rev-parse", "HEAD~1");
    const clone = join(mkdtempSync(join(tmpdir(), "sitesync-fleet-clone-")), "clone");
    gitIn(dir, "clone", "-q", "--depth", "1", `file://${dir}`, clone);
    const planned = await sitesync(["plan", "--changed-since", base], { cwd: clone, env });
    expect(planned.code, planned.stderr).toBe(0);
    expect(part(planned.stdout, "eu")).toContain(
      `Scoped to the change since ${base}: only the 1 website it touches was read and compared.`,
    );
    expect(part(planned.stdout, "eu")).toContain(`exclude_params: [fbclid], sent: changed since ${base}`);
    expect(part(planned.stdout, "us")).toContain(
      `Scoped to the change since ${base}: only the 1 website it touches was read and compared.`,
    );
    expect(part(planned.stdout, "us")).toContain("+ create  zulu.org");
    expect([eu.stats().listRequests, us.stats().listRequests], planned.stdout).toEqual([2, 2]);
  });

  it("a change to the root reaches the accounts it concerns: a key variable one, the shared policy every one", async () => {
    write({ "sitesync.yaml": ROOT(eu.url, us.url).replace("api_key_env: SITESYNC_EU_API_KEY", "api_key_env: SITESYNC_EU2_API_KEY") });
    const keyed = await sitesync(["plan", "--changed-since", "HEAD"], { cwd: dir, env: { ...env, SITESYNC_EU2_API_KEY: EU_KEY } });
    expect(keyed.code, keyed.stderr).toBe(0);
    expect(part(keyed.stdout, "eu")).toMatch(/Follows the change since HEAD \(\w+\), read in full: accounts changed\./);
    expect(part(keyed.stdout, "us")).toContain("it touches no website or project here, so none was read.");

    write({ "sitesync.yaml": ROOT(eu.url, us.url).replace("max_deletes: 5", "max_deletes: 6") });
    eu.resetLog();
    const policy = await sitesync(["plan", "--changed-since", "HEAD"], { cwd: dir, env });
    expect(policy.code, policy.stderr).toBe(0);
    expect(policy.stdout.match(/Follows the change since HEAD \(\w+\), read in full: policy changed\./g)).toHaveLength(2);
    expect(eu.stats().listRequests).toBe(11);
  });

  it("a base whose included file does not load: no change known, read in full, naming the file", async () => {
    write({ "clients/b.yaml": B.replace("email: false", "privacy: secret") });
    commit("a broken base");
    write({ "clients/b.yaml": B });
    commit("fixed");
    const planned = await sitesync(["plan", "--changed-since", "HEAD~1"], { cwd: dir, env });
    expect(planned.code, planned.stderr).toBe(0);
    const said = "No change known since HEAD~1 (clients/b.yaml, which it includes, does not load there): the account was read in full.";
    expect(part(planned.stdout, "eu")).toContain(said);
    expect(part(planned.stdout, "us")).toContain(said);
    expect(eu.stats().listRequests).toBe(11);
    // The full read sees the untouched drift too.
    expect(part(planned.stdout, "eu")).toContain("~ update  quiet.b.eu");
  });

  it("an account new since the base (here: renamed) is read in full, its websites counted as added", async () => {
    write({
      "sitesync.yaml": ROOT(eu.url, us.url).replace("  us:\n", "  americas:\n"),
      "clients/c.yaml": C.replace("account: us", "account: americas"),
    });
    const planned = await sitesync(["plan", "--changed-since", "HEAD"], { cwd: dir, env });
    expect(planned.code, planned.stderr).toBe(0);
    const [euOut, americas = ""] = planned.stdout.split("── account americas");
    expect(americas).toMatch(/Follows the change since HEAD \(\w+\), read in full: accounts changed\./);
    expect(us.stats().listRequests).toBe(11);
    expect(euOut).toContain("it touches no website or project here, so none was read.");
    expect(eu.requests).toHaveLength(0);
  });
});
