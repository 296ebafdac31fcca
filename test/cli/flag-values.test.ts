/**
 * No argument is ever misread (DESIGN §7), through the real CLI against the sandbox over real HTTP. A flag's
 * value reads the same however it is written: `-c x`, `-c=x`, `--config x` and `--config=x` (`-c=x` once read
 * the config `=x`, and `plan -o=x.json` saved to `=x.json`). A Terraform habit with one dash never does
 * something else silently, and a duration of zero is refused before any request.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, workdir } from "../helpers/cli.ts";

let sandbox: Sandbox;
let env: Record<string, string>;

beforeEach(async () => {
  sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "a.example.org" }] });
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
});
afterEach(() => sandbox.close());

const config = `${HEADER}websites:\n  - domain: a.example.org\n  - domain: new.example.org\n`;

describe("a flag's value, in every spelling", () => {
  it.each([[["-c", "my.yaml"]], [["-c=my.yaml"]], [["--config", "my.yaml"]], [["--config=my.yaml"]]])(
    "validate %j reads my.yaml",
    async (flags) => {
      const dir = workdir({ "my.yaml": config });
      const result = await sitesync(["validate", ...flags], { cwd: dir });
      expect(result.stderr).toBe("");
      expect(result.stdout).toBe("my.yaml is valid: 2 websites.\n");
      expect(result.code).toBe(0);
    },
  );

  it.each([[["-o", "x.json"]], [["-o=x.json"]], [["--out", "x.json"]], [["--out=x.json"]]])(
    "plan %j saves the plan to x.json, and apply reads it back",
    async (flags) => {
      const dir = workdir({ "sitesync.yaml": config });
      const plan = await sitesync(["plan", "-c=sitesync.yaml", ...flags], { env, cwd: dir });
      expect(plan.code, plan.stderr).toBe(0);
      expect(existsSync(join(dir, "=x.json"))).toBe(false);
      const saved = JSON.parse(readFileSync(join(dir, "x.json"), "utf8")) as { changes: { domain: string }[] };
      expect(saved.changes.map((c) => c.domain)).toEqual(["new.example.org"]);
      const apply = await sitesync(["apply", "x.json", "--auto-approve"], { env, cwd: dir });
      expect(apply.code, apply.stderr).toBe(0);
      expect(sandbox.store.websites().map((w) => w.domain)).toContain("new.example.org");
    },
  );

  it("reads every --target, whichever spelling each one has", async () => {
    const dir = workdir({ "sitesync.yaml": `${config}  - domain: other.example.net\n` });
    const result = await sitesync(["plan", "--target=new.*", "--target", "other.*", "--format=json"], { env, cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as { changes: { domain: string }[]; selection: { target: string[] } };
    expect(plan.selection.target).toEqual(["new.*", "other.*"]);
    expect(plan.changes.map((c) => c.domain)).toEqual(["new.example.org", "other.example.net"]);
  });

  it("still refuses a value given to a switch, and a flag given twice however it is spelled", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    const twice = await sitesync(["validate", "-c=a.yaml", "--config=b.yaml"], { cwd: dir });
    expect(twice.stderr).toBe("error: --config is given twice: give it once (see --help)\n");
    expect(twice.code).toBe(1);
    const switchValue = await sitesync(["validate", "--quiet=yes"], { cwd: dir });
    expect(switchValue.stderr).toBe("error: --quiet takes no value (see --help)\n");
    expect(switchValue.code).toBe(1);
  });
});

describe("Terraform habits", () => {
  const drifted = `${HEADER}websites:\n  - domain: drift.example.com\n    privacy: public\n  - domain: new.example.com\n    favorite: true\n`;

  it("never exits 0 for `plan -detailed-exitcode` on a drifted account", async () => {
    const dir = workdir({ "sitesync.yaml": drifted });
    const habit = await sitesync(["plan", "-detailed-exitcode"], { env, cwd: dir });
    expect(habit.code).toBe(1);
    expect(habit.stderr).toContain("use --detailed-exitcode");
    expect((await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir })).code).toBe(2);
  });

  it("saves no file named `ut` for `plan -out plan2.json`", async () => {
    const dir = workdir({ "sitesync.yaml": drifted });
    const result = await sitesync(["plan", "-out", "plan2.json"], { env, cwd: dir });
    expect(result.code).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(["sitesync.yaml"]);
  });
});

describe("durations", () => {
  it.each(["0s", "0ms", "0.0001ms"])("refuses %s as a wait or a timeout, before any request", async (value) => {
    const dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: shop.example.com\n` });
    const run = await sitesync(["plan", "--timeout", value], { env, cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("--timeout must be longer than 0");
    expect(sandbox.requests).toEqual([]);
  });
});
