/**
 * Every bad config in test/fixtures/bad, each run once through the CLI's `apply --auto-approve`: exactly the
 * diagnostics of test/fixtures/bad/expected.json at `file:line:col`, exit 1, and not one request to the
 * account (DESIGN §2: config errors stop the run before any API call).
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { type CliResult, sitesync, sitesyncMany } from "../helpers/cli.ts";

const dir = fileURLToPath(new URL("../fixtures/bad/", import.meta.url));
const expected = JSON.parse(readFileSync(`${dir}expected.json`, "utf8")) as Record<string, string[]>;
const files = readdirSync(dir)
  .filter((name) => name.endsWith(".yaml"))
  .sort();

let sandbox: Sandbox;
let env: Record<string, string>;
const results = new Map<string, CliResult>();
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "example.com" }, { domain: "other.example.org" }] });
  env = { SITESYNC_API_KEY: sandbox.apiKey, EXAMPLE_STATS_PASSWORD: "fixture-password", EMPTY_VAR: "" };
  const runs = files.map((name) => ["apply", "--auto-approve", "-c", `${dir}${name}`, "--websites-url", sandbox.url]);
  for (const [i, result] of (await sitesyncMany(runs, { env })).entries()) results.set(files[i]!, result);
});
afterAll(() => sandbox.close());

describe("sitesync apply with a bad config", () => {
  it("has an expectation for every fixture, and at least 35 of them", () => {
    expect(Object.keys(expected).sort()).toEqual(files);
    expect(files.length).toBeGreaterThanOrEqual(35);
  });

  it.each(files)("%s: names each problem at file:line:col, exits 1, sends nothing", (name) => {
    const file = `${dir}${name}`;
    const result = results.get(name)!;
    expect(result.code, result.stderr).toBe(1);
    const printed = result.stderr
      .split("\n")
      .filter((line) => line.startsWith(`${file}:`))
      .map((line) => line.slice(file.length + 1));
    const isWarning = (line: string) => /^\d+:\d+ \(warning\) /.test(line);
    const want = expected[name]!;
    // Exactly the expected diagnostics, each once: errors in the order of expected.json, warnings in theirs.
    expect(printed.filter((l) => !isWarning(l))).toEqual(want.filter((l) => !isWarning(l)));
    expect(printed.filter(isWarning)).toEqual(want.filter(isWarning));
    expect(result.stderr).toMatch(/error(s)? in the config: nothing was sent to the API/);
    expect(sandbox.requests).toHaveLength(0);
  });

  it("reports the same from the binary with plan, with the exit code the shell sees", async () => {
    const file = `${dir}many-mistakes.yaml`;
    const result = await sitesync(["plan", "-c", file, "--websites-url", sandbox.url], { env });
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
