/**
 * One repository for a fleet (DESIGN §2 "Many files, many accounts", §6), as a user runs it: the real CLI against sandboxes
 * over real HTTP. A root file with two accounts on two servers and five client files validates offline,
 * plans both accounts (grouped, each naming its address), applies, and plans again with no changes;
 * `--account` runs one; each account's key comes from its own variable and never shows; two accounts on
 * one server share its budget: no 429.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync } from "../helpers/cli.ts";
import { domainsOf } from "../helpers/domains.ts";
import { writeFiles } from "../helpers/files.ts";

const EU_KEY = "EuKey0000000000000000000000000000000000000000000000000000000001";
const US_KEY = "UsKey0000000000000000000000000000000000000000000000000000000002";

let eu: Sandbox;
let us: Sandbox;
let dir: string;

const write = (files: Record<string, string>): void => writeFiles(dir, files);

function root(euUrl: string, usUrl: string, usKeyEnv = "SITESYNC_US_API_KEY", euPrune = true): string {
  return [
    "version: 1",
    "accounts:",
    "  eu:",
    `    websites_url: ${euUrl}`,
    "    api_key_env: SITESYNC_EU_API_KEY",
    `    policy: { prune: ${euPrune} }`,
    "  us:",
    `    websites_url: ${usUrl}`,
    `    api_key_env: ${usKeyEnv}`,
    "policy: { prune: false, max_deletes: 5 }",
    "defaults: { exclude_bots: true }",
    'include: ["clients/*.yaml"]',
    "",
  ].join("\n");
}

const CLIENTS = {
  "clients/acme.yaml":
    "account: eu\ndefaults: { email: true }\nwebsites:\n  - domain: acme.com\n  - domain: shop.acme.com\n    privacy: private\n",
  "clients/bolt.yaml": "account: eu\nwebsites:\n  - domain: bolt.eu\n",
  "clients/cora.yaml": "account: us\nwebsites:\n  - domain: cora.com\n",
  "clients/dune.yaml": "account: us\nwebsites:\n  - domain: dune.com\n  - domain: blog.dune.com\n",
  "clients/echo.yaml": "account: us\nwebsites:\n  - domain: echo.com\n",
};

beforeEach(async () => {
  eu = await startSandbox({ apiKey: EU_KEY, rateLimit: 0, websites: [{ domain: "acme.com" }, { domain: "stray.eu" }] });
  us = await startSandbox({ apiKey: US_KEY, rateLimit: 0, websites: [{ domain: "legacy.com" }] });
  dir = mkdtempSync(join(tmpdir(), "sitesync-fleet-"));
  write({ "sitesync.yaml": root(eu.url, us.url), ...CLIENTS });
});
afterEach(async () => {
  await eu.close();
  await us.close();
});

const keys = { SITESYNC_EU_API_KEY: EU_KEY, SITESYNC_US_API_KEY: US_KEY };

describe("two accounts on two servers, five client files", () => {
  it("validates offline, plans both grouped with their addresses, applies, and plans again with no changes", async () => {
    const valid = await sitesync(["validate"], { cwd: dir });
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stdout).toBe("sitesync.yaml is valid: 7 websites in 6 files; eu: 3 websites, us: 4 websites.\n");
    expect(eu.requests.length + us.requests.length).toBe(0);

    const plan = await sitesync(["plan"], { cwd: dir, env: keys });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`── account eu (${eu.url}) ──`);
    expect(plan.stdout).toContain(`── account us (${us.url}) ──`);
    const [euPart, usPart] = plan.stdout.split(`── account us`);
    expect(euPart).toContain("+ create  shop.acme.com");
    expect(euPart).toContain("- delete  stray.eu");
    expect(euPart).not.toContain("cora.com");
    expect(usPart).toContain("+ create  blog.dune.com");
    expect(usPart).not.toContain("delete  legacy.com");
    expect(plan.stdout).toMatch(/Accounts: eu: 2 to create, 1 to update, 1 to delete.*; us: 4 to create, 0 to update, 0 to delete/);

    const apply = await sitesync(["apply", "--auto-approve"], { cwd: dir, env: keys });
    expect(apply.code, apply.stderr).toBe(0);
    expect(domainsOf(eu)).toEqual(["acme.com", "bolt.eu", "shop.acme.com"]);
    expect(domainsOf(us)).toEqual(["blog.dune.com", "cora.com", "dune.com", "echo.com", "legacy.com"]);
    expect(eu.store.findWebsite("acme.com")).toMatchObject({ email: 1, exclude_bots: 1 });
    // The accounts apply side by side and their progress lines interleave: each names its account.
    expect(apply.stderr).toContain("[eu] applied create shop.acme.com");
    expect(apply.stderr).toContain("[us] applied create cora.com");
    expect(apply.stderr).toContain("[eu] applied delete stray.eu");

    const again = await sitesync(["plan", "--detailed-exitcode"], { cwd: dir, env: keys });
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout.match(/No changes\./g)).toHaveLength(2);
    // --quiet with nothing to do: no account heading over nothing, the line across accounts only.
    const quiet = await sitesync(["plan", "-q"], { cwd: dir, env: keys });
    expect(quiet.stdout).toMatch(/^Accounts: eu: .*; us: .*\.\n$/);
  });

  it("--account runs only the accounts named, and an unknown one is refused with a suggestion", async () => {
    const plan = await sitesync(["plan", "--account", "us"], { cwd: dir, env: keys });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`── account us (${us.url}) ──`);
    expect(plan.stdout).not.toContain("Account: us"); // said once, in the heading
    expect(plan.stdout).not.toContain("── account eu");
    expect(eu.requests).toHaveLength(0);
    const typo = await sitesync(["plan", "--account", "uss"], { cwd: dir, env: keys });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain("--account uss: no such account in the config; did you mean us?");
  });

  it("a saved plan is one account's: apply runs that account alone, and refuses --account naming another", async () => {
    const saved = join(dir, "us.json");
    const plan = await sitesync(["plan", "--account", "us", "--out", saved], { cwd: dir, env: keys });
    expect(plan.code, plan.stderr).toBe(0);
    const shown = await sitesync(["show", saved], { cwd: dir });
    expect(shown.stdout).toContain(`Account: us (${us.url})`);

    const other = await sitesync(["apply", saved, "--account", "eu", "--auto-approve"], { cwd: dir, env: keys });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("the saved plan is the plan of account us: leave out --account to apply it");
    expect(eu.stats().writeRequests + us.stats().writeRequests).toBe(0);

    const apply = await sitesync(["apply", saved, "--auto-approve"], { cwd: dir, env: keys });
    expect(apply.code, apply.stderr).toBe(0);
    expect(domainsOf(us)).toEqual(["blog.dune.com", "cora.com", "dune.com", "echo.com", "legacy.com"]);
    expect(eu.stats().writeRequests).toBe(0);
    expect(eu.requests).toHaveLength(0);
  });

  it("a SITESYNC_WEBSITES_URL left exported stops the whole run before any request: no account writes", async () => {
    const apply = await sitesync(["apply", "--auto-approve"], { cwd: dir, env: { ...keys, SITESYNC_WEBSITES_URL: us.url } });
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain(
      `SITESYNC_WEBSITES_URL (${us.url}) names another account than accounts.eu.websites_url in sitesync.yaml`,
    );
    expect(apply.stderr).toContain("or pass --account eu --websites-url <url>");
    expect(eu.requests.length + us.requests.length).toBe(0);
  });

  it("a key the server refuses is named by its account's variable; --out without --account is refused before any request", async () => {
    const plan = await sitesync(["plan", "--account", "us"], { cwd: dir, env: { ...keys, SITESYNC_US_API_KEY: "wrong-key-0000" } });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("check SITESYNC_US_API_KEY (and SITESYNC_PROJECTS_API_KEY): the server did not accept it");

    const out = await sitesync(["plan", "--out", join(dir, "all.json")], { cwd: dir, env: keys });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("--out (a saved plan) applies to one account: add --account NAME (one of eu, us)");
    expect(eu.requests.length).toBe(0);
  });

  it("an account whose key is unset stops the run before any request of any account, naming its variable; --account runs the others", async () => {
    const plan = await sitesync(["plan", "--detailed-exitcode"], { cwd: dir, env: { SITESYNC_EU_API_KEY: EU_KEY } });
    expect(plan.code).toBe(1);
    expect(plan.stdout).toBe("");
    expect(plan.stderr).toContain("error: SITESYNC_US_API_KEY is not set: export the API key of account us");
    expect(eu.requests.length + us.requests.length).toBe(0);
    const alone = await sitesync(["plan", "--detailed-exitcode", "--account", "eu"], { cwd: dir, env: { SITESYNC_EU_API_KEY: EU_KEY } });
    expect(alone.code, alone.stderr).toBe(2);
    expect(alone.stdout).toContain("+ create  shop.acme.com");
  });

  it("never shows either account's key, even with --verbose and --format json", async () => {
    for (const args of [
      ["plan", "--verbose"],
      ["plan", "--format", "json"],
    ]) {
      const run = await sitesync(args, { cwd: dir, env: keys });
      expect(run.code, run.stderr).toBe(0);
      for (const key of [EU_KEY, US_KEY]) expect(run.stdout + run.stderr).not.toContain(key);
    }
    const json = JSON.parse((await sitesync(["plan", "--format", "json"], { cwd: dir, env: keys })).stdout);
    expect(json.accounts.map((a: { account: string; plan: { target: unknown } }) => [a.account, a.plan.target])).toEqual([
      ["eu", { websites: eu.url }],
      ["us", { websites: us.url }],
    ]);
  });

  it("refuses a client file naming no account, or one the root does not have, at its place", async () => {
    write({ "clients/fern.yaml": "websites:\n  - domain: fern.com\n", "clients/gala.yaml": "account: usa\nwebsites: []\n" });
    const valid = await sitesync(["validate"], { cwd: dir });
    expect(valid.code).toBe(1);
    expect(valid.stderr).toContain("clients/fern.yaml:1:1 this file needs account: one of eu, us");
    expect(valid.stderr).toContain('clients/gala.yaml:1:10 account: no account "usa" in the root file; did you mean "us"?');
  });
});

describe("two accounts on one server", () => {
  it("that are one account (the same address and key) are refused when one prunes: it would delete the other's websites", async () => {
    const shared = await startSandbox({ apiKey: EU_KEY, rateLimit: 0, websites: [{ domain: "cora.com" }] });
    try {
      write({ "sitesync.yaml": root(shared.url, shared.url, "SITESYNC_EU_API_KEY") });
      for (const argv of [
        ["apply", "--auto-approve"],
        ["plan", "--account", "eu"],
      ]) {
        const run = await sitesync(argv, { cwd: dir, env: keys });
        expect(run.code).toBe(1);
        expect(run.stderr).toContain("accounts eu and us are one account of the server (the same websites_url and the same key)");
      }
      expect(shared.requests).toHaveLength(0);
    } finally {
      await shared.close();
    }
  });

  it("share its budget and run one after the other: no 429", async () => {
    const shared = await startSandbox({ apiKey: EU_KEY, rateLimit: 4, rateWindowMs: 1000 });
    try {
      // One key for both: one account of the server, split in two entries. Without prune that is allowed.
      write({ "sitesync.yaml": root(shared.url, shared.url, "SITESYNC_EU_API_KEY", false) });
      const apply = await sitesync(["apply", "--auto-approve", "--rate-window", "1s"], { cwd: dir, env: keys });
      expect(apply.code, apply.stderr).toBe(0);
      expect(domainsOf(shared)).toEqual(["acme.com", "blog.dune.com", "bolt.eu", "cora.com", "dune.com", "echo.com", "shop.acme.com"]);
      expect(shared.stats().throttled).toBe(0);
    } finally {
      await shared.close();
    }
  });
});
