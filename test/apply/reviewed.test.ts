/**
 * Applying only what was reviewed, through the real CLI against the sandbox: `apply --reviewed plan.json`
 * (the intersection of a reviewed plan and a fresh one) and `apply plan.json` refusing a forged file.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { planHash } from "../../src/plan/fingerprint.ts";
import type { Plan } from "../../src/plan/types.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, workdir } from "../helpers/cli.ts";
import { domainsOf } from "../helpers/domains.ts";

let sandbox: Sandbox;
let env: Record<string, string>;

beforeEach(async () => {
  sandbox = await startSandbox({
    rateLimit: 0,
    websites: [
      { domain: "drift.example.com", privacy: 1, email: 0, exclude_bots: 0 },
      { domain: "gone.example.com" },
      { domain: "unlisted.example.org" },
    ],
  });
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
});
afterEach(() => sandbox.close());

const WEBSITES = [
  "  - domain: drift.example.com",
  "    exclude_bots: true",
  "  - domain: new.example.com",
  "  - domain: gone.example.com",
  "    state: absent",
];
const configOf = (websites: string[]) => `${HEADER}websites:\n${websites.join("\n")}\n`;
const domains = () => domainsOf(sandbox);
const id = (domain: string) => sandbox.store.findWebsite(domain)!.id;

describe("apply --reviewed", () => {
  it("applies only the reviewed changes, reports the others as not reviewed (exit 4), and the rest applies once reviewed", async () => {
    const dir = workdir({ "sitesync.yaml": configOf(WEBSITES) });
    const planned = await sitesync(["plan", "--out", "reviewed.json"], { env, cwd: dir });
    expect(planned.code, planned.stderr).toBe(0);

    // Between the review and the apply: an edit in the web UI, a site deleted by someone, the config grew.
    sandbox.store.updateWebsite(id("drift.example.com"), { email: 1 });
    sandbox.store.removeWebsite(id("gone.example.com"));
    writeFileSync(join(dir, "sitesync.yaml"), configOf([...WEBSITES, "  - domain: extra.example.com"]));
    sandbox.resetLog();

    const applied = await sitesync(["apply", "--reviewed", "reviewed.json", "--results", "results.json", "--auto-approve"], {
      env,
      cwd: dir,
    });
    expect(applied.code, applied.stdout + applied.stderr).toBe(4);
    expect(domains()).toEqual(["drift.example.com", "new.example.com", "unlisted.example.org"]);
    expect(sandbox.store.findWebsite("drift.example.com")!.exclude_bots).toBe(0);
    expect(sandbox.requests.filter((r) => r.method === "PUT")).toHaveLength(0);
    expect(applied.stdout).toContain("extra.example.com: not applied: not in the reviewed plan");
    expect(applied.stdout).toContain("not applied: drift.example.com (id");
    expect(applied.stdout).toContain("changed in the account since the review");
    expect(applied.stderr).toContain("no longer needed: delete gone.example.com");
    expect(applied.stderr).toContain("2 changes were not applied: not in the reviewed plan");
    expect(applied.stderr).toContain("review: partial (1 applied, 2 not in the reviewed plan)");
    const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
    expect(results.counts).toMatchObject({ applied: 1, failed: 0, skipped: 2 });

    // Reviewed again, the rest applies cleanly.
    expect((await sitesync(["plan", "--out", "again.json"], { env, cwd: dir })).code).toBe(0);
    const rest = await sitesync(["apply", "--reviewed", "again.json", "--auto-approve"], { env, cwd: dir });
    expect(rest.code, rest.stdout + rest.stderr).toBe(0);
    expect(rest.stderr).toContain("review: applied (2 reviewed changes, all that were due)");
    expect(domains()).toEqual(["drift.example.com", "extra.example.com", "new.example.com", "unlisted.example.org"]);
    expect(sandbox.store.findWebsite("drift.example.com")!.exclude_bots).toBe(1);
  });

  it("refuses a saved plan and --reviewed together", async () => {
    const dir = workdir({ "sitesync.yaml": configOf(WEBSITES) });
    await sitesync(["plan", "--out", "plan.json"], { env, cwd: dir });
    const both = await sitesync(["apply", "plan.json", "--reviewed", "plan.json"], { env, cwd: dir });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("not both");
    expect(sandbox.stats().writeRequests).toBe(0);
  });
});

describe("apply plan.json", () => {
  it("never applies a delete added to a saved plan, even with a freshly computed hash (exit 4, reported)", async () => {
    const dir = workdir({ "sitesync.yaml": configOf(WEBSITES) });
    expect((await sitesync(["plan", "--out", "plan.json"], { env, cwd: dir })).code).toBe(0);
    // The forger's delete is a genuine one (right id and fingerprint), taken from a plan of another config.
    const other = workdir({ "sitesync.yaml": configOf(["  - domain: unlisted.example.org", "    state: absent"]) });
    expect((await sitesync(["plan", "--out", "other.json"], { env, cwd: other })).code).toBe(0);
    const genuine = (JSON.parse(readFileSync(join(other, "other.json"), "utf8")) as Plan).changes[0]!;
    expect(genuine).toMatchObject({ action: "delete", domain: "unlisted.example.org" });

    const { hash: _old, ...forged } = JSON.parse(readFileSync(join(dir, "plan.json"), "utf8")) as Plan;
    forged.changes.push(genuine);
    forged.summary.delete += 1;
    writeFileSync(join(dir, "plan.json"), JSON.stringify({ ...forged, hash: planHash(forged) }));
    const unlisted = id("unlisted.example.org");

    const applied = await sitesync(["apply", "plan.json", "--auto-approve"], { env, cwd: dir });
    expect(applied.code, applied.stdout + applied.stderr).toBe(4);
    expect(sandbox.requests.filter((r) => r.method === "DELETE" && r.path.endsWith(`/${unlisted}`))).toHaveLength(0);
    expect(domains()).toContain("unlisted.example.org");
    expect(applied.stdout).toMatch(/unlisted\.example\.org.*refused: a fresh plan of the current config does not call for it/);
    // What the config does call for is applied.
    expect(domains()).toEqual(["drift.example.com", "new.example.com", "unlisted.example.org"]);
  });
});
