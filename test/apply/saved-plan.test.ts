/**
 * A saved plan applied twice (DESIGN §3: its items apply where their fingerprint still matches, the rest are
 * reported): through the real CLI against the sandbox over real HTTP, a change already live is told apart from
 * a stale one by its readable values, and a password-only change is still sent.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, workdir } from "../helpers/cli.ts";

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

describe("a saved plan applied twice", () => {
  const PASSWORD = "hunter2-but-longer";

  it("says `already applied` when the same saved plan is applied twice, and writes each file whole", async () => {
    sandbox = await startSandbox({
      rateLimit: 0,
      websites: [{ domain: "drift.example.com", privacy: 1 }, { domain: "a.example.org" }, { domain: "b.example.org" }],
    });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const drifted = `${HEADER}websites:\n  - domain: drift.example.com\n    privacy: public\n  - domain: new.example.com\n    favorite: true\n`;
    const dir = workdir({ "sitesync.yaml": drifted });
    expect((await sitesync(["plan", "--out", "plan.json"], { env, cwd: dir })).code).toBe(0);
    const first = await sitesync(["apply", "plan.json", "--results", "results.json", "--auto-approve"], { env, cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const second = await sitesync(["apply", "plan.json", "--auto-approve"], { env, cwd: dir });
    expect(second.stdout).toContain("stale: already applied: new.example.com exists (id 4) with the planned values");
    expect(second.stdout).toContain("stale: already applied: drift.example.com has the planned values");
    expect(second.stdout).not.toContain("someone else");
    // Done already is not "stale": it does not ask to plan again. It stays exit 4, as Terraform refuses a stale plan.
    expect(second.stderr).toContain("2 changes were already applied: this plan was applied before, nothing to do for them.");
    expect(second.stderr).not.toContain("plan again");
    expect(second.code).toBe(4);
    expect(JSON.parse(readFileSync(join(dir, "results.json"), "utf8"))).toMatchObject({ counts: { applied: 2 } });
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

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
