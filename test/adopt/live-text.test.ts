/**
 * `sitesync adopt` with values the account took as free text (API-NOTES §2.4): a `${` in a domain or an
 * exclude_ips line is written as `export` writes it (`$${`), quoted where a `[...]` list needs it, so that the
 * file reads it back as is; a line no config can hold is the account's to correct. Real CLI, real HTTP.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync, workdir } from "../helpers/cli.ts";

let sandbox: Sandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await startSandbox({
    rateLimit: 0,
    websites: [
      { domain: "${home}.example.com", privacy: 1 },
      { domain: "office.example.com", privacy: 1, exclude_ips: ["203.0.113.7"] },
    ],
  });
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url, HOME: "/root", home: "leaked" };
});
afterAll(() => sandbox.close());

async function setIps(domain: string, lines: string): Promise<void> {
  const id = sandbox.store.findWebsite(domain)?.id;
  const response = await fetch(`${sandbox.url}/api/v1/websites/${id}`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${sandbox.apiKey}`, Accept: "application/json" },
    body: new URLSearchParams({ exclude_ips: lines }),
  });
  expect(response.ok, await response.text()).toBe(true);
}

describe("adopt with the account's free text", () => {
  it("adds a domain holding ${ as $${, which the next plan reads as written, never as a variable", async () => {
    const dir = workdir({ "sitesync.yaml": "version: 1\nwebsites:\n  - domain: office.example.com\n    exclude_ips: [203.0.113.7]\n" });
    const adopt = await sitesync(["adopt", "sitesync.yaml", "--add-unlisted"], { env, cwd: dir });
    expect(adopt.code, adopt.stderr).toBe(0);
    expect(readFileSync(join(dir, "sitesync.yaml"), "utf8")).toContain('- domain: "$${home}.example.com"\n');
    const plan = await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout + plan.stderr).not.toContain("leaked");
  });

  it("writes an exclude_ips line the config cannot hold nowhere, and says to correct it in the account", async () => {
    await setIps("office.example.com", "203.0.113.7\n10.0.0.1 # office");
    const text = "version: 1\nwebsites:\n  - domain: office.example.com\n    exclude_ips: [203.0.113.7]\n";
    const dir = workdir({ "sitesync.yaml": text });
    const adopt = await sitesync(["adopt", "sitesync.yaml"], { env, cwd: dir });
    expect(adopt.code).toBe(1);
    expect(adopt.stderr).toContain('the account holds a value a config cannot: "10.0.0.1 # office" is not an IP address or CIDR range');
    expect(adopt.stderr).toContain("correct it in phpAnalytics, then run adopt again");
    expect(adopt.stderr).not.toContain("a bug in sitesync");
    expect(readFileSync(join(dir, "sitesync.yaml"), "utf8")).toBe(text);
  });
});
