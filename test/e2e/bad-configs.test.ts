/**
 * Every bad config in test/fixtures/bad, through the CLI: the exact `file:line:col` diagnostics, exit 1, and
 * not one request to the account (DESIGN §2: config errors stop the run before any API call).
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.ts";
import { sitesync, sitesyncInProcess } from "./helpers.ts";

const dir = fileURLToPath(new URL("../fixtures/bad/", import.meta.url));
const expected = JSON.parse(readFileSync(`${dir}expected.json`, "utf8")) as Record<string, string[]>;
const files = readdirSync(dir).filter((name) => name.endsWith(".yaml")).sort();

let sandbox: Sandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "example.com" }, { domain: "other.example.org" }] });
  env = { SITESYNC_API_KEY: sandbox.apiKey, EXAMPLE_STATS_PASSWORD: "fixture-password", EMPTY_VAR: "" };
});
afterAll(() => sandbox.close());

describe("sitesync plan with a bad config", () => {
  it.each(files)("%s: names each problem at file:line:col, exits 1, sends nothing", async (name) => {
    sandbox.resetLog();
    const file = `${dir}${name}`;
    for (const command of [["plan"], ["apply", "--auto-approve"]]) {
      const result = await sitesyncInProcess([...command, "-c", file, "--websites-url", sandbox.url], env);
      expect(result.code).toBe(1);
      for (const line of expected[name]!) expect(result.stderr).toContain(`${file}:${line}`);
      expect(result.stderr).toMatch(/error(s)? in the config: nothing was sent to the API/);
    }
    expect(sandbox.requests).toHaveLength(0);
  });

  it("reports the same from the binary, with the exit code the shell sees", async () => {
    sandbox.resetLog();
    const file = `${dir}many-mistakes.yaml`;
    const result = await sitesync(["plan", "-c", file, "--websites-url", sandbox.url], {
      env: { SITESYNC_API_KEY: sandbox.apiKey, EXAMPLE_STATS_PASSWORD: "fixture-password" },
    });
    expect(result.code).toBe(1);
    for (const line of expected["many-mistakes.yaml"]!) expect(result.stderr).toContain(`${file}:${line}`);
    expect(sandbox.requests).toHaveLength(0);
  });

  it("validate reports them offline, without a key or URL", async () => {
    const file = `${dir}many-mistakes.yaml`;
    const result = await sitesync(["validate", "-c", file], { env: { EXAMPLE_STATS_PASSWORD: "fixture-password" } });
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n").filter((l) => l.startsWith(file))).toHaveLength(expected["many-mistakes.yaml"]!.length);
  });
});
