/**
 * The API key and every password never appear in any output, log, error, plan file or results file
 * (DESIGN §3), in every format, with --verbose, and when the API fails.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { type CliResult, HEADER, sitesync, workdir } from "../helpers/cli.ts";

const KEY = "K3yK3yK3ySecretApiKeyValue0123456789abcdefABCDEF0123456789abcdef";
const PASSWORDS = { PW_ONE: "correct-horse-battery-staple", PW_TWO: "Tr0ub4dor&3-also-secret" };

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({
    apiKey: KEY,
    rateLimit: 0,
    websites: [{ domain: "two.example.com", privacy: 0 }, { domain: "prune-me.example.org" }],
  });
});
afterAll(() => sandbox.close());

const config =
  HEADER +
  `websites:
  - domain: one.example.com
    privacy: password
    password: \${PW_ONE}
  - domain: two.example.com
    privacy: password
    password: "\${PW_TWO}"
    exclude_params: [fbclid]
`;

function expectNoSecret(text: string, where: string): void {
  for (const secret of [KEY, ...Object.values(PASSWORDS)]) {
    expect(text.includes(secret), `${where} contains a secret`).toBe(false);
  }
}

describe("secrets", () => {
  it("never appear in stdout, stderr, plan files, results files or --verbose logs", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    const env = { SITESYNC_API_KEY: KEY, SITESYNC_WEBSITES_URL: sandbox.url, ...PASSWORDS };
    const runs: CliResult[] = [];
    for (const format of ["text", "json", "markdown"]) {
      runs.push(await sitesync(["plan", "--verbose", "--format", format, "--sync-write-only"], { env, cwd: dir }));
    }
    runs.push(await sitesync(["plan", "--verbose", "--out", "plan.json"], { env, cwd: dir }));
    runs.push(
      await sitesync(["apply", "plan.json", "--verbose", "--results", "results.json", "--verify", "--auto-approve"], { env, cwd: dir }),
    );
    runs.push(await sitesync(["apply", "--verbose", "--auto-approve", "--sync-write-only", "--format", "json"], { env, cwd: dir }));
    runs.push(await sitesync(["export", "--verbose"], { env, cwd: dir }));

    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    // The verbose log really is there (so the check below searched it).
    expect(runs[0]!.stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/websites\?.*200/);
    expect(runs[5]!.stderr).toMatch(/PUT .*\/api\/v1\/websites\/\d+ 200/);
    runs.forEach((run, i) => {
      expectNoSecret(run.stdout, `stdout of run ${i}`);
      expectNoSecret(run.stderr, `stderr of run ${i}`);
    });
    expectNoSecret(readFileSync(join(dir, "plan.json"), "utf8"), "plan.json");
    expectNoSecret(readFileSync(join(dir, "results.json"), "utf8"), "results.json");
    expect(sandbox.store.websites().find((w) => w.domain === "one.example.com")?.password).toBe(PASSWORDS.PW_ONE);
  });

  it("never appear in errors: a bad key, a refused write, a failing server", async () => {
    const dir = workdir({ "sitesync.yaml": config.replace("one.example.com", "taken.example.net") });
    sandbox.store.addOtherUserDomain("taken.example.net");
    const env = { SITESYNC_WEBSITES_URL: sandbox.url, ...PASSWORDS };
    const badKey = await sitesync(["plan", "--verbose"], { env: { ...env, SITESYNC_API_KEY: `${KEY}x` }, cwd: dir });
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toContain("401");
    expectNoSecret(badKey.stderr + badKey.stdout, "bad key run");

    const refused = await sitesync(["apply", "--auto-approve", "--verbose"], { env: { ...env, SITESYNC_API_KEY: KEY }, cwd: dir });
    expect(refused.code).toBe(3);
    expect(refused.stdout).toContain("The domain has already been taken.");
    expectNoSecret(refused.stderr + refused.stdout, "refused run");

    sandbox.setFaults({ errorRate: 1, methods: ["GET"] });
    const failing = await sitesync(["plan", "--verbose", "--timeout", "2s"], { env: { ...env, SITESYNC_API_KEY: KEY }, cwd: dir });
    sandbox.setFaults(undefined);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain("500");
    expectNoSecret(failing.stderr + failing.stdout, "failing run");
  });
});
