/**
 * Apply against an API that fails (5xx, resets, writes committed but answered by a dropped connection), with
 * seeded faults and one request at a time, so that every run sees the same faults: the first apply reports
 * what failed (exit 3) and everything it calls applied is really in the account with the planned values; a
 * second apply, still under 10% faults on every request, converges (exit 0); no website is duplicated, lost
 * or deleted outside the plan.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ItemResult } from "../../src/apply/types.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, workdir } from "../helpers/cli.ts";

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
  ...Array.from(
    { length: 25 },
    (_, i) => `  - domain: new-${i}.example.com\n    favorite: ${i % 3 === 0}\n    exclude_ips: [192.0.2.${i}]`,
  ),
  ...Array.from({ length: 20 }, (_, i) => `  - domain: update-${i}.example.com\n    privacy: private\n    email: true`),
  ...Array.from({ length: 5 }, (_, i) => `  - domain: tomb-${i}.example.com\n    state: absent`),
];
const config = `${HEADER}policy:\n  max_deletes: 10\nwebsites:\n${websites.join("\n")}\n`;

/** What the sandbox holds for a website, in the plan's terms (undefined when it does not exist). */
function inSandbox(domain: string): Record<string, unknown> | undefined {
  const site = sandbox.store.findWebsite(domain);
  if (!site) return undefined;
  const ips = site.exclude_ips ? site.exclude_ips.split("\n") : [];
  return {
    privacy: site.privacy,
    email: site.email,
    exclude_bots: site.exclude_bots,
    exclude_ips: ips,
    favorite: site.favorited_at !== null,
  };
}

/** Checks the results file against the account: "applied" must be true, field by planned field. */
function expectResultsTrue(file: string): ItemResult[] {
  const { items } = JSON.parse(readFileSync(file, "utf8")) as { items: ItemResult[] };
  for (const item of items) {
    if (item.change.kind !== "website" || item.status !== "applied") continue;
    const { change } = item;
    const actual = inSandbox(change.domain);
    if (change.action === "delete") {
      expect(actual, `${change.domain} reported deleted`).toBeUndefined();
      continue;
    }
    expect(actual, `${change.domain} reported ${change.action}d`).toBeDefined();
    for (const field of change.fields) {
      const after = Array.isArray(field.after) ? [...field.after].sort() : field.after;
      const got = Array.isArray(actual![field.field]) ? [...(actual![field.field] as string[])].sort() : actual![field.field];
      expect(got, `${change.domain} ${field.field}`).toEqual(after);
    }
  }
  return items;
}

describe("apply with injected faults", () => {
  it("reports what failed, tells the truth about what it applied, and converges on the second apply", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const args = ["apply", "--auto-approve", "--concurrency", "1"];

    // Creates are the hard case (a POST is never blindly repeated): make most POSTs fail.
    sandbox.setFaults({ seed: 7, errorRate: 0.4, resetRate: 0.2, dropAfterCommitRate: 0.3, methods: ["POST"] });
    const first = await sitesync([...args, "--results", "r1.json"], { env, cwd: dir });
    expect(first.code, first.stderr).toBe(3);
    const faultsInFirst = sandbox.requests.filter((r) => r.fault);
    expect(new Set(faultsInFirst.map((r) => r.fault))).toEqual(new Set(["error", "reset", "drop"]));
    const r1 = expectResultsTrue(join(dir, "r1.json"));
    const failed = r1.filter((i) => i.status === "failed");
    expect(failed.length).toBeGreaterThan(0);
    expect(first.stdout).toContain("Apply finished with failures.");
    // A create reported failed made no site: a committed POST whose answer was lost is found and adopted.
    for (const { change } of failed) {
      expect(change.action).toBe("create");
      expect(
        change.kind === "website" && inSandbox(change.domain),
        `${change.kind === "website" && change.domain} reported failed`,
      ).toBeUndefined();
    }
    expect(r1.filter((i) => i.note?.includes("adopted")).length, "a dropped POST was adopted").toBeGreaterThan(0);

    sandbox.setFaults({ seed: 2, errorRate: 0.05, resetRate: 0.03, dropAfterCommitRate: 0.05 });
    const before = sandbox.requests.length;
    const second = await sitesync([...args, "--results", "r2.json"], { env, cwd: dir });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(sandbox.requests.slice(before).filter((r) => r.fault).length, "faults in the second apply").toBeGreaterThan(0);
    const r2 = expectResultsTrue(join(dir, "r2.json"));
    expect(r2.map((i) => i.change.kind === "website" && i.change.domain).sort()).toEqual(
      failed.map((i) => i.change.kind === "website" && i.change.domain).sort(),
    );

    sandbox.setFaults(undefined);
    const final = await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir });
    expect(final.code, final.stdout).toBe(0);
    expect(final.stdout).toContain("No changes.");

    const domains = sandbox.store.websites().map((w) => w.domain);
    expect(new Set(domains).size).toBe(domains.length);
    for (let i = 0; i < 25; i++) expect(domains).toContain(`new-${i}.example.com`);
    for (let i = 0; i < 20; i++) expect(domains).toContain(`update-${i}.example.com`);
    for (let i = 0; i < 10; i++) expect(domains).toContain(`unmanaged-${i}.example.org`);
    for (let i = 0; i < 5; i++) expect(domains).not.toContain(`tomb-${i}.example.com`);
    expect(domains).toHaveLength(55);
    const favorites = sandbox.store
      .websites()
      .filter((w) => w.favorited_at !== null)
      .map((w) => w.domain)
      .sort();
    expect(favorites).toEqual(
      Array.from({ length: 25 }, (_, i) => i)
        .filter((i) => i % 3 === 0)
        .map((i) => `new-${i}.example.com`)
        .sort(),
    );
  });
});
