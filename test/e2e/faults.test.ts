/**
 * Apply against an API that fails 10% of the time (5xx, resets, writes committed but answered by a dropped
 * connection): the first apply reports what failed (exit 3), a second apply converges, and no website is
 * duplicated, lost or deleted outside the plan.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, workdir } from "./helpers.ts";

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({
    rateLimit: 0,
    websites: [
      ...Array.from({ length: 20 }, (_, i) => ({ domain: `update-${i}.example.com`, privacy: 0 })),
      ...Array.from({ length: 5 }, (_, i) => ({ domain: `tomb-${i}.example.com` })),
      ...Array.from({ length: 10 }, (_, i) => ({ domain: `unmanaged-${i}.example.org` })),
    ],
  });
});
afterEach(() => sandbox.close());

const websites = [
  ...Array.from({ length: 25 }, (_, i) => `  - domain: new-${i}.example.com\n    favorite: ${i % 3 === 0}\n    exclude_ips: [192.0.2.${i}]`),
  ...Array.from({ length: 20 }, (_, i) => `  - domain: update-${i}.example.com\n    privacy: private\n    email: true`),
  ...Array.from({ length: 5 }, (_, i) => `  - domain: tomb-${i}.example.com\n    state: absent`),
];
const config = `${HEADER}policy:\n  max_deletes: 10\nwebsites:\n${websites.join("\n")}\n`;

describe("apply with 10% injected faults", () => {
  it("converges within two applies with no duplicated, lost or unintended deletes", async () => {
    sandbox.setFaults({ seed: 7, errorRate: 0.05, resetRate: 0.03, dropAfterCommitRate: 0.05 });
    const dir = workdir({ "sitesync.yaml": config });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const faultsSeen = () => sandbox.requests.filter((r) => r.fault).length;

    const first = await sitesync(["apply", "--auto-approve", "--concurrency", "8", "--results", "r1.json"], { env, cwd: dir });
    expect([0, 3]).toContain(first.code);
    const second = await sitesync(["apply", "--auto-approve", "--concurrency", "8"], { env, cwd: dir });
    expect([0, 3]).toContain(second.code);
    expect(faultsSeen(), "the sandbox injected faults").toBeGreaterThanOrEqual(3);

    sandbox.setFaults(undefined);
    let final = await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir });
    if (final.code === 2) {
      // Only a third apply may still be owed when both earlier ones failed on the same item; say which.
      expect.soft(final.stdout, "not converged after two applies").toContain("No changes.");
      await sitesync(["apply", "--auto-approve"], { env, cwd: dir });
      final = await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir });
    }
    expect(final.code, final.stdout).toBe(0);

    const domains = sandbox.store.websites().map((w) => w.domain);
    expect(new Set(domains).size).toBe(domains.length);
    for (let i = 0; i < 25; i++) expect(domains).toContain(`new-${i}.example.com`);
    for (let i = 0; i < 20; i++) expect(domains).toContain(`update-${i}.example.com`);
    for (let i = 0; i < 10; i++) expect(domains).toContain(`unmanaged-${i}.example.org`);
    for (let i = 0; i < 5; i++) expect(domains).not.toContain(`tomb-${i}.example.com`);
    expect(domains).toHaveLength(55);
    const favorites = sandbox.store.websites().filter((w) => w.favorited_at !== null).map((w) => w.domain).sort();
    expect(favorites).toEqual(Array.from({ length: 25 }, (_, i) => i).filter((i) => i % 3 === 0).map((i) => `new-${i}.example.com`).sort());
  });
});
