/**
 * `apply --verify` (DESIGN §6: read the account again after applying and compare): through the real CLI against
 * the sandbox over real HTTP, what it says when the API stored a value differently, when the account matches,
 * and that it is not run after a saved plan's stale skip.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, workdir } from "../helpers/cli.ts";

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
});
