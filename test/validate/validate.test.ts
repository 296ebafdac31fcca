/**
 * `validate`, and the config checks plan and apply share with it (DESIGN §2), through the real CLI against the
 * sandbox over real HTTP: a literal password is warned about, a file that cannot be read is named at the place
 * it has, an unset variable is a note offline and an error for a run, and an error quotes what the file says,
 * never the secret a variable put there. (Each diagnostic of test/fixtures/bad: bad-configs.test.ts.)
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

describe("a config file it cannot read", () => {
  it("names a missing config file without a line and column it does not have", async () => {
    const dir = workdir();
    const result = await sitesync(["validate"], { env, cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("sitesync.yaml: cannot read the config: no such file");
    expect(result.stderr).not.toContain("sitesync.yaml:1:1");
  });

  it("reports an unclosed quote at the line that opens it", async () => {
    const dir = workdir({
      "sitesync.yaml": `${HEADER}websites:\n  - domain: "a.example.com\n    privacy: public\n  - domain: b.example.com\n`,
    });
    const result = await sitesync(["validate"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`sitesync.yaml:4:13 invalid YAML: the quote " opened here is never closed`);
  });
});

describe("validate needs no secret (DESIGN §2)", () => {
  const config = `${HEADER}websites:\n  - domain: example.com\n    privacy: password\n    password: \${STATS_PASSWORD}\n`;

  it("passes with a note for an unset variable; --strict-env, plan and apply make it an error", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    const note = await sitesync(["validate"], { cwd: dir });
    expect(note.code, note.stderr).toBe(0);
    expect(note.stderr).toBe(
      "sitesync.yaml:6:15 (warning) websites[0].password: environment variable STATS_PASSWORD is not set: plan and apply need it (--strict-env makes this an error)\n",
    );
    expect(note.stdout).toBe("sitesync.yaml is valid: 1 website.\n");

    const error =
      "sitesync.yaml:6:15 websites[0].password: environment variable STATS_PASSWORD is not set; set it, or give a default with ${STATS_PASSWORD:-value}\n";
    const strict = await sitesync(["validate", "--strict-env"], { cwd: dir });
    expect(strict.code).toBe(1);
    expect(strict.stderr.startsWith(error)).toBe(true);
    sandbox.resetLog();
    const planned = await sitesync(["plan"], { env, cwd: dir });
    expect(planned.code).toBe(1);
    expect(planned.stderr.startsWith(error)).toBe(true);
    expect(sandbox.requests).toHaveLength(0);

    const set = await sitesync(["validate", "--strict-env"], { cwd: dir, env: { STATS_PASSWORD: "pw-from-the-vault" } });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toBe("");
  });
});

describe("values read from the environment", () => {
  it("config errors quote what the file says, never the secret an interpolation put there", async () => {
    const secret = "S3cr3t-from-the-environment-0123456789";
    const dir = workdir({
      "sitesync.yaml":
        HEADER +
        `websites:
  - domain: \${SITE}
  - domain: ok.example.com
    exclude_ips: ["\${EXCLUDE}", "10.0.0.1/\${PREFIX}"]
`,
    });
    const secrets = { EXCLUDE: secret, PREFIX: `99${secret}`, SITE: `no/${secret}` };
    for (const command of ["validate", "plan"]) {
      const result = await sitesync([command], { env: { ...env, ...secrets }, cwd: dir });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain('websites[1].exclude_ips[0]: "${EXCLUDE}" is not an IP address');
      expect(result.stderr).toContain('websites[1].exclude_ips[1]: "10.0.0.1/${PREFIX}" has an invalid prefix length');
      // The domain rule quotes the domain as stored (lowercased): that message is withheld whole, with its place.
      expect(result.stderr).toMatch(/sitesync\.yaml:4:\d+ websites\[0\]\.domain: invalid value \(read from "\$\{SITE\}"\)/);
      expect(result.stderr.toLowerCase()).not.toContain(secret.toLowerCase());
      expect(result.stdout.toLowerCase()).not.toContain(secret.toLowerCase());
    }
  });
});
