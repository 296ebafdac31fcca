/**
 * A bound protects against hostile input, never against sitesync's own scale (DESIGN §12: 4x headroom). Through the real CLI
 * against the sandbox over real HTTP: an exported account grown past the old 10 MiB cap to 20 MB (comments,
 * as people write them, around thousands of websites) validates and plans to no changes; past the 64 MiB cap
 * it is refused naming the cap. The 100,000-website round trip itself is measured by `npm run bench`.
 */
import { appendFileSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync, workdir } from "../helpers/cli.ts";

const WEBSITES = 5000;
let sandbox: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: 0, seed: WEBSITES });
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
});
afterAll(() => sandbox.close());

describe("a config far bigger than a real one", () => {
  it("of 20 MB, exported and grown with comments, validates and plans to no changes", { timeout: 120_000 }, async () => {
    const dir = workdir();
    const file = join(dir, "sitesync.yaml");
    expect((await sitesync(["export", "--out", file], { env, cwd: dir })).code).toBe(0);
    // A comment line under every entry, until the file is 20 MB.
    const entries = readFileSync(file, "utf8").split(/(?=^ {2}- domain: )/m);
    const pad = Math.ceil((20_000_000 - statSync(file).size) / entries.length);
    const comment = `    # ${"notes on this website, ".repeat(Math.ceil(pad / 23)).slice(0, pad - 7)}\n`;
    writeFileSync(file, entries.map((entry, i) => (i === 0 ? entry : `${entry}${comment}`)).join(""));
    appendFileSync(file, comment);
    expect(statSync(file).size).toBeGreaterThan(20_000_000);

    const validated = await sitesync(["validate", "-c", file], { env, cwd: dir });
    expect(validated.code, validated.stderr).toBe(0);
    expect(`${validated.stdout}${validated.stderr}`).toContain(`is valid: ${WEBSITES} websites`);
    const planned = await sitesync(["plan", "--detailed-exitcode", "-c", file], { env, cwd: dir });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain(`Plan: 0 to create, 0 to update, 0 to delete, ${WEBSITES} unchanged`);
  });

  it("over 64 MiB is refused before it is read, naming the cap and why it is fixed", async () => {
    const dir = workdir();
    const file = join(dir, "sitesync.yaml");
    writeFileSync(file, "version: 1\nwebsites: []\n");
    truncateSync(file, 65 * 2 ** 20);
    const before = sandbox.requests.length;
    const result = await sitesync(["plan", "-c", file], { env, cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${file}: cannot read the config: it is 65 MiB, more than the 64 MiB a config may be (4 times the export of a 100,000-website account; the cap is fixed`,
    );
    expect(sandbox.requests.length).toBe(before);
  });
});
