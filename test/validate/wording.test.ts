/**
 * Issue 20's small things, through the real CLI against the sandbox over real HTTP: a literal password is
 * warned about, a missing file has no line:column, and a timeout reads as a sentence.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, workdir } from "../helpers/cli.ts";

let sandbox: Sandbox;
let env: Record<string, string>;

beforeEach(async () => {
  sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "shop.example.com", privacy: 2 }] });
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
});
afterEach(() => sandbox.close());

const LITERAL = "Hunter2-in-git";

describe("a password written in the config file", () => {
  const literal = `${HEADER}defaults:\n  password: ${LITERAL}\nwebsites:\n  - domain: shop.example.com\n    privacy: password\n`;

  it("is a warning in validate and in plan, at its line, without the password", async () => {
    const dir = workdir({ "sitesync.yaml": literal });
    for (const args of [["validate"], ["plan"]]) {
      const result = await sitesync(args, { env, cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain("sitesync.yaml:4:13 (warning) defaults.password: the password is written in the file");
      expect(result.stderr).toContain("write password: ${SITE_PASSWORD}");
      expect(`${result.stdout}${result.stderr}`).not.toContain(LITERAL);
    }
  });

  it("is no warning when it comes from ${VAR}", async () => {
    const dir = workdir({ "sitesync.yaml": literal.replace(LITERAL, "${SHOP_PASSWORD}") });
    const result = await sitesync(["plan"], { env: { ...env, SHOP_PASSWORD: LITERAL }, cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("password is written in the file");
  });
});

describe("wording", () => {
  it("names a missing config file without a line and column it does not have", async () => {
    const dir = workdir();
    const result = await sitesync(["validate"], { env, cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("sitesync.yaml: cannot read the config: no such file");
    expect(result.stderr).not.toContain("sitesync.yaml:1:1");
  });

  it("says a request timed out, as a sentence", async () => {
    await sandbox.close();
    sandbox = await startSandbox({ rateLimit: 0, latencyMs: 2000, websites: [{ domain: "shop.example.com" }] });
    const dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: shop.example.com\n` });
    const result = await sitesync(["plan", "--timeout", "50ms", "--websites-url", sandbox.url], { env, cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/: timed out: no answer within 50 ms \(raise --timeout if the server is this slow\)/);
    expect(result.stderr).not.toMatch(/timeout no answer/);
  });
});
