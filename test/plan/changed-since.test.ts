import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync, workdir } from "../helpers/cli.ts";
import { git } from "../helpers/git.ts";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const SECRETS = { SHOP_PW: "shop-rotated-Secret-1", OLD_PW: "old-var-Secret-2", NEW_PW: "new-var-Secret-3" };

/** A repository whose sitesync.yaml is `base` at HEAD~1 and `head` at HEAD; returns its folder and the base commit. */
function repository(base: string, head: string): { dir: string; baseCommit: string } {
  const dir = workdir();
  git(dir, "init", "-q");
  writeFileSync(join(dir, "sitesync.yaml"), base);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  const baseCommit = git(dir, "rev-parse", "HEAD");
  writeFileSync(join(dir, "sitesync.yaml"), head);
  git(dir, "commit", "-q", "-am", "head");
  return { dir, baseCommit };
}

const BASE = `version: 1
policy: { prune: true, max_deletes: 5 }
websites:
  - domain: a.com
    email: false
  - domain: blog.example.com
    exclude_params: [utm_source]
  - domain: shop.example.com
    privacy: password
    password: \${SHOP_PW}
  - domain: vars.example.com
    privacy: password
    password: \${OLD_PW}
  - domain: removed.example.com
  - domain: tomb.example.com
  - domain: quiet.example.com
    email: true
`;
// Every kind of touch: a readable field, exclude_params only, a rotation by password_version, a ${VAR}
// renamed, an added website, one removed under prune, one tombstoned. quiet.example.com is not touched.
const HEAD = BASE.replace("email: false", "email: true")
  .replace("[utm_source]", "[utm_source, fbclid]")
  .replace("password: ${SHOP_PW}", "password: ${SHOP_PW}\n    password_version: 2")
  .replace("${OLD_PW}", "${NEW_PW}")
  .replace("  - domain: removed.example.com\n", "  - domain: new.example.com\n")
  .replace("  - domain: tomb.example.com\n", "  - domain: tomb.example.com\n    state: absent\n");

async function account(seed = 1_000): Promise<Sandbox> {
  sandbox = await startSandbox({
    rateLimit: 0,
    seed,
    websites: [
      { domain: "a.com", email: 0 },
      // a.com is a substring of these: its search finds them, and the plan must not touch them.
      { domain: "data.com" },
      { domain: "a.com.au" },
      { domain: "blog.example.com", exclude_params: "utm_source" },
      { domain: "shop.example.com", privacy: 2, password: "shop-old-password" },
      { domain: "vars.example.com", privacy: 2, password: "vars-old-password" },
      { domain: "removed.example.com" },
      { domain: "tomb.example.com" },
      // Drift on a website the change does not touch: a scoped plan does not evaluate it.
      { domain: "quiet.example.com", email: 0 },
    ],
  });
  return sandbox;
}

const envOf = (s: Sandbox) => ({ SITESYNC_API_KEY: s.apiKey, SITESYNC_WEBSITES_URL: s.url, ...SECRETS });

function expectNoSecret(s: Sandbox, ...outputs: string[]): void {
  for (const output of outputs) {
    for (const secret of [s.apiKey, ...Object.values(SECRETS)]) expect(output).not.toContain(secret);
  }
}

describe("sitesync plan/apply --changed-since REF", () => {
  it("reads only the touched websites (k + 1 requests), shows every edit with its reason, and apply plan.json sends them", async () => {
    const s = await account();
    const { dir } = repository(BASE, HEAD);
    const env = envOf(s);

    const planned = await sitesync(["plan", "--changed-since", "HEAD~1", "--out", "plan.json"], { env, cwd: dir });
    expect(planned.code, planned.stderr).toBe(0);
    // One probe for meta.total, one search per touched website (7): never the 11 pages of the account.
    expect(s.stats()).toMatchObject({ listRequests: 8, writeRequests: 0 });
    const out = planned.stdout;
    expect(out).toContain("Scoped to the change since HEAD~1");
    expect(out).toContain("Not evaluated: drift of websites and projects the change does not touch");
    expect(out).toContain("~ update  a.com");
    expect(out).toContain("exclude_params: [utm_source, fbclid], sent: changed since HEAD~1");
    expect(out).toMatch(/shop\.example\.com \(id \d+\)\n {6}password: \(sensitive\), sent: rotated since HEAD~1/);
    expect(out).toMatch(/vars\.example\.com \(id \d+\)\n {6}password: \(sensitive\), sent: changed since HEAD~1/);
    expect(out).toContain("+ create  new.example.com");
    expect(out).toContain("- delete  removed.example.com");
    expect(out).toContain("- delete  tomb.example.com");
    expect(out).not.toMatch(/data\.com|a\.com\.au|quiet\.example\.com/);
    expect(out).toContain("Plan: 1 to create, 4 to update, 2 to delete, 0 unchanged, 0 unmanaged.");
    expect(out).toContain("≈ 15 requests: 8 reads, 7 writes; within the rate limit");
    const saved = readFileSync(join(dir, "plan.json"), "utf8");
    expectNoSecret(s, planned.stdout, planned.stderr, saved);

    s.resetLog();
    const applied = await sitesync(["apply", "plan.json", "--results", "results.json", "--auto-approve"], { env, cwd: dir });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    // The saved plan is confirmed over the same change (its base commit), so the same k + 1 reads.
    expect(s.stats()).toMatchObject({ listRequests: 8, writeRequests: 7 });
    const site = (domain: string) => s.store.findWebsite(domain);
    expect(site("a.com")?.email).toBe(1);
    expect(site("blog.example.com")?.exclude_params).toBe("utm_source\nfbclid");
    expect(site("shop.example.com")?.password).toBe(SECRETS.SHOP_PW);
    expect(site("vars.example.com")?.password).toBe(SECRETS.NEW_PW);
    expect(site("new.example.com")).toBeDefined();
    expect(site("removed.example.com")).toBeUndefined();
    expect(site("tomb.example.com")).toBeUndefined();
    expect(site("quiet.example.com")?.email).toBe(0);
    expect(site("data.com")).toBeDefined();
    expectNoSecret(s, applied.stdout, applied.stderr, readFileSync(join(dir, "results.json"), "utf8"));
  });

  it("apply --changed-since sends an exclude_params edit (which a plan without the change only counts), and --verify agrees", async () => {
    const s = await account(0);
    const head = BASE.replace("[utm_source]", "[utm_source, fbclid]");
    const { dir } = repository(BASE, head);
    const env = envOf(s);

    const blind = await sitesync(["plan"], { env, cwd: dir });
    expect(blind.stdout).not.toContain("~ update  blog.example.com");
    expect(blind.stdout).toContain(
      "so the plan cannot verify those values: --changed-since REF sends the ones a commit edits, --sync-write-only sends every one the file sets.",
    );

    // --verify re-reads the same scope: the value sent cannot be read back, so it is not reported as unconverged.
    const applied = await sitesync(["apply", "--changed-since", "HEAD~1", "--auto-approve", "--verify"], { env, cwd: dir });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stderr).toContain("exclude_params: [utm_source, fbclid], sent: changed since HEAD~1");
    expect(applied.stdout + applied.stderr).toContain("Verified: the account matches the configuration.");
    expect(s.store.findWebsite("blog.example.com")?.exclude_params).toBe("utm_source\nfbclid");
    expectNoSecret(s, blind.stdout, blind.stderr, applied.stdout, applied.stderr);
  });

  it("reads in full when defaults change, and says why", async () => {
    const s = await account(1_000);
    const head = BASE.replace("policy: { prune: true, max_deletes: 5 }", "policy: { prune: false }\ndefaults: { exclude_bots: true }");
    const { dir } = repository(BASE, head);
    const planned = await sitesync(["plan", "--changed-since", "HEAD~1"], { env: envOf(s), cwd: dir });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain("read in full: defaults changed; policy changed.");
    expect(s.stats().listRequests).toBe(11);
  });

  it("reads in full when that costs fewer requests than the lookups (a small account)", async () => {
    const s = await account(0);
    const { dir } = repository(BASE, HEAD);
    const planned = await sitesync(["plan", "--changed-since", "HEAD~1"], { env: envOf(s), cwd: dir });
    expect(planned.stdout).toContain("read in full: looking the touched names up would cost more requests than reading the account.");
    expect(s.stats().listRequests).toBe(2);
  });

  it("--full reads the account in full but still sends what the change edits", async () => {
    const s = await account(0);
    const { dir } = repository(BASE, BASE.replace("[utm_source]", "[fbclid]"));
    const planned = await sitesync(["plan", "--changed-since", "HEAD~1", "--full"], { env: envOf(s), cwd: dir });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain("read in full: --full.");
    expect(planned.stdout).toContain("exclude_params: [fbclid], sent: changed since HEAD~1");
    // quiet.example.com's drift is seen by a full read.
    expect(planned.stdout).toContain("~ update  quiet.example.com");
  });

  it("knows no change when the base is not there, reads in full and says why", async () => {
    const s = await account(0);
    const { dir } = repository(BASE, HEAD);
    const planned = await sitesync(["plan", "--changed-since", "no-such-branch"], { env: envOf(s), cwd: dir });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain(
      "No change known since no-such-branch (git knows no such revision, and it could not be fetched: check its spelling; a shallow clone needs the history it names (git fetch --deepen=N, or actions/checkout with fetch-depth: 0)): the account was read in full.",
    );
    expect(planned.stdout).toContain("~ update  quiet.example.com");
  });

  it("works in a shallow clone: the base commit is fetched once", async () => {
    const s = await account(1_000);
    const origin = repository(BASE, BASE.replace("[utm_source]", "[fbclid]"));
    const clone = join(workdir(), "clone");
    git(origin.dir, "clone", "-q", "--depth", "1", `file://${origin.dir}`, clone);
    const planned = await sitesync(["plan", "--changed-since", origin.baseCommit], { env: envOf(s), cwd: clone });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain(`Scoped to the change since ${origin.baseCommit}: only the 1 website it touches`);
    expect(planned.stdout).toContain(`exclude_params: [fbclid], sent: changed since ${origin.baseCommit}`);
  });

  it("follows a change to projects the same way: only the touched project is looked up", async () => {
    sandbox = await startSandbox({ rateLimit: 0, seed: 0, seedProjects: 1_000, websites: [{ domain: "a.com" }] });
    const s = sandbox;
    const base = "version: 1\nwebsites:\n  - domain: a.com\nprojects:\n  - project: keep.example.com\n  - project: retired.example.com\n";
    const head = base.replace("  - project: retired.example.com\n", "  - project: retired.example.com\n    state: absent\n");
    s.store.addProject({ project: "retired.example.com" });
    const { dir } = repository(base, head);
    const env = { ...envOf(s), SITESYNC_PROJECTS_URL: s.url };
    const planned = await sitesync(["plan", "--changed-since", "HEAD~1"], { env, cwd: dir });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain("only the 1 project it touches was read and compared");
    expect(planned.stdout).toContain("- delete  project retired.example.com");
    // One size probe and one search for the projects; the websites need no request at all.
    expect(s.stats().listRequests).toBe(2);
  });

  it("refuses the change flags where they make no sense", async () => {
    const dir = workdir({ "sitesync.yaml": BASE, "plan.json": "{}" });
    const full = await sitesync(["plan", "--full"], { cwd: dir });
    expect([full.code, full.stderr]).toEqual([1, expect.stringContaining("--full goes with --changed-since REF")]);
    const update = await sitesync(["export", "--update", "sitesync.yaml", "--changed-since", "HEAD~1"], { cwd: dir });
    expect([update.code, update.stderr]).toEqual([1, expect.stringContaining("export --update always reads the whole account")]);
    const saved = await sitesync(["apply", "plan.json", "--changed-since", "HEAD~1", "--auto-approve"], { cwd: dir });
    expect(saved.code).toBe(1);
  });
});
