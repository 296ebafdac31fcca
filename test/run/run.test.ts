/**
 * The one orchestrator that the CLI and the Action share, against the sandbox over real HTTP: what its
 * Outcome says (plan, results, exit code), where it takes keys and URLs from, and what it never does.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { errorLines } from "../../src/render/index.ts";
import { run } from "../../src/run/run.ts";
import { createRunRedactor } from "../../src/run/run-redactor.ts";
import type { RunRequest } from "../../src/run/types.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";

let sandbox: Sandbox;
let dir: string;
beforeEach(async () => {
  sandbox = await startSandbox({
    rateLimit: 0,
    websites: [{ domain: "keep.example.com" }, { domain: "old.example.com" }, { domain: "older.example.com" }],
  });
  dir = mkdtempSync(join(tmpdir(), "sitesync-run-"));
});
afterEach(() => sandbox.close());

function configFile(body: string): string {
  const file = join(dir, "sitesync.yaml");
  writeFileSync(file, `version: 1\n${body}`);
  return file;
}

function request(command: RunRequest["command"], body: string, extra: Partial<RunRequest> = {}): RunRequest {
  const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
  return { command, config: configFile(body), env, redactor: createRunRedactor(), ...extra };
}

const CONFIG = "websites:\n  - domain: keep.example.com\n  - domain: new.example.com\n    privacy: password\n    password: ${PW}\n";

describe("run", () => {
  it("plans without writing, and exits 2 on changes only when asked", async () => {
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url, PW: "a-long-password" };
    const plain = await run(request("plan", CONFIG, { env }));
    expect(plain.accounts[0]?.plan?.changes.map((c) => c.action)).toEqual(["create"]);
    expect(plain.exitCode).toBe(0);
    const detailed = await run(request("plan", CONFIG, { env, settings: { detailedExitcode: true } }));
    expect(detailed.exitCode).toBe(2);
    expect(sandbox.stats().writeRequests).toBe(0);
  });

  it("applies, writes the results file, and redacts the password it read from the given environment", async () => {
    const redactor = createRunRedactor();
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url, PW: "a-long-password" };
    const resultsFile = join(dir, "results.json");
    const outcome = await run(request("apply", CONFIG, { env, redactor, settings: { resultsFile } }));
    expect(outcome.exitCode).toBe(0);
    expect(outcome.accounts[0]?.results?.counts).toMatchObject({ applied: 1, failed: 0 });
    expect(JSON.parse(readFileSync(resultsFile, "utf8"))).toEqual(outcome.accounts[0]?.results);
    expect(sandbox.store.findWebsite("new.example.com")).toBeDefined();
    expect(redactor.redact(`key ${sandbox.apiKey}, password a-long-password`)).toBe("key (sensitive), password (sensitive)");
  });

  it("refuses a plan over max_deletes with exit 4 and applies nothing of it", async () => {
    const pruning = "policy:\n  prune: true\n  max_deletes: 1\nwebsites:\n  - domain: keep.example.com\n  - domain: added.example.com\n";
    const outcome = await run(request("apply", pruning));
    expect(outcome.accounts[0]?.plan?.refusals).toHaveLength(1);
    expect(outcome.accounts[0]?.results).toBeUndefined();
    expect(outcome.exitCode).toBe(4);
    expect(sandbox.stats().writeRequests).toBe(0);
  });

  it("ends with the error and exit 1 on a config error, before any request", async () => {
    const outcome = await run(request("plan", "websites:\n  - domain: a.example.com\n    privacy: secret\n"));
    expect(outcome.error).toMatchObject({ name: "ConfigError" });
    expect(outcome.exitCode).toBe(1);
    expect(sandbox.requests).toHaveLength(0);
  });

  it("reads the key and URLs from the environment it is given, and a setting beats the environment", async () => {
    const outcome = await run(request("plan", "websites: []\n", { env: { SITESYNC_WEBSITES_URL: sandbox.url } }));
    expect(outcome.error).toMatchObject({
      problem: { code: "key-unset", keys: [{ account: "", env: "SITESYNC_API_KEY", api: "websites" }] },
    });
    expect(errorLines(outcome.error)).toEqual([expect.stringContaining("SITESYNC_API_KEY is not set")]);
    expect(sandbox.requests).toHaveLength(0);
    const secrets = { apiKey: sandbox.apiKey };
    const flagBeatsEnv = await run(
      request("plan", "websites: []\n", {
        env: { SITESYNC_WEBSITES_URL: "https://unused.example" },
        secrets,
        settings: { websitesUrl: sandbox.url },
      }),
    );
    expect(flagBeatsEnv.exitCode).toBe(0);
    expect(flagBeatsEnv.accounts[0]?.plan?.target.websites).toBe(sandbox.url);
  });

  it("refuses a SITESYNC_WEBSITES_URL that names another account than the file, naming both, before any request", async () => {
    const other = "https://other-account.example";
    const outcome = await run(
      request("plan", `websites_url: ${sandbox.url}\nwebsites: []\n`, {
        env: { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: other },
      }),
    );
    expect(outcome.exitCode).toBe(1);
    expect(outcome.error).toMatchObject({ name: "AccountUrlError", problem: { code: "env-differs", env: other, file: sandbox.url } });
    const [line] = errorLines(outcome.error);
    expect(line).toContain(`SITESYNC_WEBSITES_URL (${other}) names another account than websites_url`);
    expect(line).toContain("pass --websites-url <url>");
    expect(sandbox.requests).toHaveLength(0);
  });

  it("takes the file's URL when the environment names the same account, and a flag over both on purpose", async () => {
    const body = `websites_url: ${sandbox.url}\nwebsites: []\n`;
    const same = await run(
      request("plan", body, { env: { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: `${sandbox.url}/api/v1/` } }),
    );
    expect(same.exitCode).toBe(0);
    expect(same.accounts[0]?.plan?.target.websites).toBe(sandbox.url);
    const onPurpose = await run(
      request("plan", "websites_url: https://file-account.example\nwebsites: []\n", {
        env: { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: "https://env-account.example" },
        settings: { websitesUrl: sandbox.url },
      }),
    );
    expect(onPurpose.exitCode).toBe(0);
    expect(onPurpose.accounts[0]?.plan?.target.websites).toBe(sandbox.url);
  });
});
