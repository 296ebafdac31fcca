/**
 * Every account's address is known before the first request of any account (DESIGN §2 "the account a run
 * talks to is never a surprise"): an account without one stops the whole run, naming it, so that no other
 * account reads or writes meanwhile, even one on another server that would otherwise run side by side.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync, workdir } from "../helpers/cli.ts";
import { writeFiles } from "../helpers/files.ts";

const KEYS = { SITESYNC_EU_API_KEY: "EuAddressKey".padEnd(64, "0"), SITESYNC_US_API_KEY: "UsAddressKey".padEnd(64, "0") };

let eu: Sandbox;
beforeEach(async () => {
  eu = await startSandbox({ apiKey: KEYS.SITESYNC_EU_API_KEY, rateLimit: 0 });
});
afterEach(() => eu.close());

it("an account without an address is refused, naming it, before any request of any account", async () => {
  const dir = workdir();
  writeFiles(dir, {
    "sitesync.yaml": [
      "version: 1",
      "accounts:",
      `  eu: { websites_url: ${eu.url}, api_key_env: SITESYNC_EU_API_KEY }`,
      "  us: { api_key_env: SITESYNC_US_API_KEY }",
      'include: ["clients/*.yaml"]',
      "",
    ].join("\n"),
    "clients/acme.yaml": "account: eu\nwebsites:\n  - domain: acme.com\n",
    "clients/cora.yaml": "account: us\nwebsites:\n  - domain: cora.com\n",
  });
  for (const args of [
    ["apply", "--auto-approve"],
    ["plan", "--format", "json"],
  ]) {
    const run = await sitesync(args, { cwd: dir, env: KEYS });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/account us has no API address/);
  }
  expect(eu.requests).toEqual([]);
});
