/**
 * Passwords as plan and apply read them (DESIGN §2): one that must be sent but is not set is planned and flagged
 * at the website's line, and apply refuses that change before any write; a stored one is kept unless the config sets one, and a password's length
 * is counted in characters against the API's bound of 128 (API-NOTES §2.4). The real CLI against the sandbox
 * over real HTTP.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, workdir } from "../helpers/cli.ts";

let sandbox: Sandbox;
let env: Record<string, string>;
beforeEach(async () => {
  sandbox = await startSandbox({
    rateLimit: 0,
    // site-00001 is the seed's first website: private, with no password stored.
    seed: 1,
    websites: [{ domain: "locked.example.com", privacy: 2, password: "the-old-password", exclude_ips: ["2001:db8::/32", "192.0.2.1"] }],
  });
  // Only the key and the URLs: no password variable of any kind.
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url, SITESYNC_PROJECTS_URL: sandbox.url };
});
afterEach(() => sandbox.close());

const writes = () => sandbox.requests.filter((r) => r.method !== "GET");

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

  it("keeps a stored password with --sync-write-only, which sends only what the config sets", async () => {
    const dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: locked.example.com\n    privacy: password\n` });
    const kept = await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir });
    expect(kept.code, kept.stderr).toBe(0);
    const sync = await sitesync(["plan", "--sync-write-only", "--detailed-exitcode"], { env, cwd: dir });
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stderr).not.toContain("password");
  });
});

describe("a password's length", () => {
  it("counts a password's length in characters, as the API's mb_strlen does: 128 emoji are a valid password", async () => {
    const dir = workdir({
      "sitesync.yaml": `${HEADER}websites:\n  - domain: shop.example.com\n    privacy: password\n    password: \${PW}\n`,
    });
    const applied = await sitesync(["apply", "--auto-approve"], { env: { ...env, PW: "🔒".repeat(128) }, cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    expect(sandbox.store.findWebsite("shop.example.com")?.password).toBe("🔒".repeat(128));
    const tooLong = await sitesync(["plan"], { env: { ...env, PW: "🔒".repeat(129) }, cwd: dir });
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toContain("is 129 characters long; the API takes at most 128");
  });
});
