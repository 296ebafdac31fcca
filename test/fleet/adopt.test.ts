/**
 * `adopt` (today `export --update`) on a fleet applies each account's own policy (DESIGN §2: an account's
 * `policy` over the root's): the websites `accounts.NAME.policy.ignore` matches are unmanaged there, so adopt
 * neither rewrites one a client file lists (its drift stays in the file) nor adds one the account holds
 * unlisted, while it still accepts the account's other live changes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync, workdir } from "../helpers/cli.ts";
import { writeFiles } from "../helpers/files.ts";

const KEYS = { SITESYNC_EU_API_KEY: "EuAdoptKey".padEnd(64, "0"), SITESYNC_US_API_KEY: "UsAdoptKey".padEnd(64, "0") };
const ACME = [
  "account: eu",
  "websites:",
  "  - domain: acme.com",
  "    privacy: public",
  "  - domain: tmp-1.acme.com # ignored by eu: left as written",
  "    privacy: private",
  "",
].join("\n");

let eu: Sandbox;
let us: Sandbox;
beforeEach(async () => {
  eu = await startSandbox({
    apiKey: KEYS.SITESYNC_EU_API_KEY,
    rateLimit: 0,
    websites: [
      { domain: "acme.com", privacy: 1 },
      { domain: "tmp-1.acme.com", privacy: 0 },
      { domain: "tmp-2.acme.com" },
      { domain: "shop.acme.com" },
    ],
  });
  us = await startSandbox({ apiKey: KEYS.SITESYNC_US_API_KEY, rateLimit: 0, websites: [{ domain: "cora.com" }] });
});
afterEach(async () => {
  await eu.close();
  await us.close();
});

it("on a fleet, never rewrites nor adds a website its account's policy.ignore matches", async () => {
  const dir = workdir();
  writeFiles(dir, {
    // The root's policy ignores nothing: the ignore is eu's own.
    "sitesync.yaml": [
      "version: 1",
      "policy: { prune: false }",
      "accounts:",
      "  eu:",
      `    websites_url: ${eu.url}`,
      "    api_key_env: SITESYNC_EU_API_KEY",
      '    policy: { prune: true, ignore: ["tmp-*.acme.com"] }',
      `  us: { websites_url: ${us.url}, api_key_env: SITESYNC_US_API_KEY }`,
      'include: ["clients/*.yaml"]',
      "",
    ].join("\n"),
    "clients/acme.yaml": ACME,
    "clients/cora.yaml": "account: us\nwebsites:\n  - domain: cora.com\n",
  });
  const adopt = await sitesync(["export", "--update", "sitesync.yaml", "--into", "clients/acme.yaml"], { cwd: dir, env: KEYS });
  expect(adopt.code, adopt.stderr).toBe(0);
  const acme = readFileSync(join(dir, "clients/acme.yaml"), "utf8");
  // eu's other live changes were accepted: acme.com's privacy, and shop.acme.com added (eu prunes).
  expect(acme).toContain("  - domain: acme.com\n    privacy: private\n");
  expect(acme).toContain("domain: shop.acme.com");
  expect(acme).toContain("  - domain: tmp-1.acme.com # ignored by eu: left as written\n    privacy: private\n");
  expect(acme).not.toContain("tmp-2.acme.com");
  const plan = await sitesync(["plan", "--detailed-exitcode"], { cwd: dir, env: KEYS });
  expect(plan.code, plan.stdout).toBe(0);
  expect(eu.stats().writeRequests + us.stats().writeRequests).toBe(0);
});
