/**
 * Behaviours users trust that no other test guarded (issue 17), through the real CLI against the sandbox
 * over real HTTP: what `--verify` says when the API rewrites a value, and a separate projects key.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, workdir } from "./helpers.ts";

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

describe("apply --verify", () => {
  it("reports a field the API stored differently as not converged, and exits 3 (apply failed)", async () => {
    sandbox = await startSandbox({ rateLimit: 0, dropLastExcludedIp: true, websites: [{ domain: "shop.example.com" }] });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: shop.example.com\n    exclude_ips: [10.0.0.1, 10.0.0.2]\n` });
    const applied = await sitesync(["apply", "--auto-approve", "--verify"], { env, cwd: dir });
    expect(applied.stderr).toContain("Verify: 1 change did not converge:");
    expect(applied.stderr).toMatch(/ {2}~ update {2}shop\.example\.com.*exclude_ips/s);
    expect(applied.stderr).not.toContain("Verified: the account matches");
    expect(applied.code).toBe(3);
  });

  it("says the account matches when it does", async () => {
    sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "shop.example.com" }] });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: shop.example.com\n    exclude_ips: [10.0.0.1, 10.0.0.2]\n` });
    const applied = await sitesync(["apply", "--auto-approve", "--verify"], { env, cwd: dir });
    expect(applied.stderr).toContain("Verified: the account matches the configuration.");
    expect(applied.code).toBe(0);
  });
});

describe("a separate projects key (SITESYNC_PROJECTS_API_KEY)", () => {
  const PROJECTS_KEY = "PrOjEcTsK3y0000000000000000000000000000000000000000000000000000P";
  const config = `${HEADER}websites:\n  - domain: shop.example.com\nprojects:\n  - project: old.example.org\n    state: absent\n`;

  it("is sent to the projects API, and the websites key to the websites API", async () => {
    sandbox = await startSandbox({
      rateLimit: 0,
      projectsApiKey: PROJECTS_KEY,
      websites: [{ domain: "shop.example.com" }],
      projects: [{ project: "old.example.org" }],
    });
    const env = {
      SITESYNC_API_KEY: sandbox.apiKey,
      SITESYNC_PROJECTS_API_KEY: PROJECTS_KEY,
      SITESYNC_WEBSITES_URL: sandbox.url,
      SITESYNC_PROJECTS_URL: sandbox.url,
    };
    const dir = workdir({ "sitesync.yaml": config });
    const applied = await sitesync(["apply", "--auto-approve", "--verbose"], { env, cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    expect(sandbox.store.projects().map((p) => p.project)).toEqual([]);
    expect(applied.stdout + applied.stderr).not.toContain(PROJECTS_KEY);
  });

  it("is needed: without it the projects API refuses the websites key, and nothing is deleted", async () => {
    sandbox = await startSandbox({ rateLimit: 0, projectsApiKey: PROJECTS_KEY, projects: [{ project: "old.example.org" }] });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url, SITESYNC_PROJECTS_URL: sandbox.url };
    const dir = workdir({ "sitesync.yaml": config });
    const applied = await sitesync(["apply", "--auto-approve"], { env, cwd: dir });
    expect(applied.code).not.toBe(0);
    expect(applied.stderr).toContain("SITESYNC_PROJECTS_API_KEY");
    expect(sandbox.store.projects().map((p) => p.project)).toEqual(["old.example.org"]);
  });
});

describe("durations", () => {
  it.each(["0s", "0ms", "0.0001ms"])("refuses %s as a wait or a timeout, before any request", async (value) => {
    sandbox = await startSandbox({ rateLimit: 0 });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: shop.example.com\n` });
    const run = await sitesync(["plan", "--timeout", value], { env, cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("--timeout must be longer than 0");
    expect(sandbox.requests).toEqual([]);
  });
});

describe("a saved plan applied twice", () => {
  const PASSWORD = "hunter2-but-longer";

  it("calls a change done when its readable values are live, whatever its write-only password", async () => {
    sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "shop.example.com", privacy: 1 }] });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url, SHOP_PW: PASSWORD };
    const dir = workdir({
      "sitesync.yaml": `${HEADER}websites:\n  - domain: shop.example.com\n    privacy: password\n    password: \${SHOP_PW}\n`,
    });
    expect((await sitesync(["plan", "--out", "plan.json"], { env, cwd: dir })).code).toBe(0);
    expect((await sitesync(["apply", "plan.json", "--auto-approve"], { env, cwd: dir })).code).toBe(0);
    const second = await sitesync(["apply", "plan.json", "--auto-approve"], { env, cwd: dir });
    expect(second.stdout).toContain("stale: already applied: shop.example.com has the planned values");
    expect(second.stdout).not.toContain(PASSWORD);
  });

  it("never calls a change done on a site that did not move: a password-only change is sent", async () => {
    sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "shop.example.com", privacy: 2, password: "old-password-1" }] });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url, SHOP_PW: PASSWORD };
    const dir = workdir({
      "sitesync.yaml": `${HEADER}websites:\n  - domain: shop.example.com\n    privacy: password\n    password: \${SHOP_PW}\n`,
    });
    expect((await sitesync(["plan", "--sync-write-only", "--out", "plan.json"], { env, cwd: dir })).code).toBe(0);
    const applied = await sitesync(["apply", "plan.json", "--auto-approve"], { env, cwd: dir });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).not.toContain("already applied");
    expect(sandbox.store.findWebsite("shop.example.com")?.password).toBe(PASSWORD);
  });
});

describe("plans", () => {
  it("does not verify after a stale skip: the skipped change would only be reported again", async () => {
    sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "shop.example.com", privacy: 1 }] });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: shop.example.com\n    privacy: public\n` });
    expect((await sitesync(["plan", "--out", "plan.json"], { env, cwd: dir })).code).toBe(0);
    const shop = sandbox.store.findWebsite("shop.example.com")!;
    sandbox.store.updateWebsite(shop.id, { email: 1, updated_at: "2030-01-01T00:00:00.000000Z" });
    const applied = await sitesync(["apply", "plan.json", "--verify", "--auto-approve"], { env, cwd: dir });
    expect(applied.code).toBe(4);
    expect(applied.stdout).toContain("stale: shop.example.com changed since the plan");
    expect(applied.stderr).not.toMatch(/Verif(y|ied)/);
  });

  it("does not warn about a --target pattern that matches only websites in the account", async () => {
    sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "shop.example.com" }, { domain: "legacy.example.org" }] });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: shop.example.com\n` });
    const run = await sitesync(["plan", "--target", "legacy.*"], { env, cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).not.toContain("matches no website");
    const typo = await sitesync(["plan", "--target", "legasy.*"], { env, cwd: dir });
    expect(typo.stdout + typo.stderr).toContain('--target "legasy.*" matches no website');
  });

  it("counts a password's length in characters, as the API's mb_strlen does: 128 emoji are a valid password", async () => {
    sandbox = await startSandbox({ rateLimit: 0 });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url, PW: "🔒".repeat(128) };
    const dir = workdir({
      "sitesync.yaml": `${HEADER}websites:\n  - domain: shop.example.com\n    privacy: password\n    password: \${PW}\n`,
    });
    const applied = await sitesync(["apply", "--auto-approve"], { env, cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    expect(sandbox.store.findWebsite("shop.example.com")?.password).toBe("🔒".repeat(128));
    const tooLong = await sitesync(["plan"], { env: { ...env, PW: "🔒".repeat(129) }, cwd: dir });
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toContain("is 129 characters long; the API takes at most 128");
  });

  it("reports a website deleted just before its PUT (the API answers 500) as gone, not as a server error", async () => {
    sandbox = await startSandbox({
      rateLimit: 0,
      websites: [{ domain: "shop.example.com", privacy: 1 }],
      beforeAnswer: ({ method }) => {
        if (method === "PUT") sandbox!.store.removeWebsite(sandbox!.store.findWebsite("shop.example.com")!.id);
        return undefined;
      },
    });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: shop.example.com\n    privacy: public\n` });
    const applied = await sitesync(["apply", "--auto-approve"], { env, cwd: dir });
    expect(applied.code).toBe(3);
    expect(applied.stdout + applied.stderr).toContain("no longer exists; plan again");
    expect(sandbox.requests.filter((r) => r.method === "PUT")).toHaveLength(1);
  });
});
