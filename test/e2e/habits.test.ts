/**
 * What a Terraform user notices (issue 11), through the real CLI against the sandbox over real HTTP: no
 * habit silently does something else, and each small surprise reads as the user expects.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createIo } from "../../src/cli/_io.ts";
import { runCli } from "../../src/cli/main.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, workdir } from "./helpers.ts";

let sandbox: Sandbox;
let env: Record<string, string>;

beforeEach(async () => {
  sandbox = await startSandbox({
    rateLimit: 0,
    websites: [{ domain: "drift.example.com", privacy: 1 }, { domain: "a.example.org" }, { domain: "b.example.org" }],
  });
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
});
afterEach(() => sandbox.close());

const drifted = `${HEADER}websites:\n  - domain: drift.example.com\n    privacy: public\n  - domain: new.example.com\n    favorite: true\n`;

describe("Terraform habits", () => {
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

describe("saved plans and files", () => {
  it("says `already applied` when the same saved plan is applied twice, and writes each file whole", async () => {
    const dir = workdir({ "sitesync.yaml": drifted });
    expect((await sitesync(["plan", "--out", "plan.json"], { env, cwd: dir })).code).toBe(0);
    const first = await sitesync(["apply", "plan.json", "--results", "results.json", "--auto-approve"], { env, cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const second = await sitesync(["apply", "plan.json", "--auto-approve"], { env, cwd: dir });
    expect(second.stdout).toContain("stale: already applied: new.example.com exists (id 4) with the planned values");
    expect(second.stdout).toContain("stale: already applied: drift.example.com has the planned values");
    expect(second.stdout).not.toContain("someone else");
    // Done already is not "stale": it does not ask to plan again. It stays exit 4, as Terraform refuses a stale plan.
    expect(second.stderr).toContain("2 changes were already applied: this plan was applied before, nothing to do for them.");
    expect(second.stderr).not.toContain("plan again");
    expect(second.code).toBe(4);
    expect(JSON.parse(readFileSync(join(dir, "results.json"), "utf8"))).toMatchObject({ counts: { applied: 2 } });
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("prints a refusal's reason once, and leaves no empty results file behind", async () => {
    const config = `${HEADER}policy:\n  prune: true\n  max_deletes: 1\nwebsites:\n  - domain: drift.example.com\n`;
    const dir = workdir({ "sitesync.yaml": config });
    for (const command of [["plan"], ["apply", "--auto-approve", "--results", "results.json"]]) {
      const result = await sitesync(command, { env, cwd: dir });
      expect(result.code).toBe(4);
      const output = result.stdout + result.stderr;
      expect(output.split("more than the limit of 1").length - 1, output).toBe(1);
    }
    expect(existsSync(join(dir, "results.json"))).toBe(false);
  });
});

describe("messages", () => {
  it("points at --websites-url when the URL has /api too many (404 on /api/api/v1) or nobody answers", async () => {
    const dir = workdir({ "sitesync.yaml": drifted });
    const hint = "check --websites-url (SITESYNC_WEBSITES_URL, websites_url): it is the base address of the installation, without /api/v1.";
    const wrongPath = await sitesync(["plan", "--websites-url", `${sandbox.url}/api`], { env, cwd: dir });
    expect(wrongPath.stderr).toContain("/api/api/v1/websites");
    expect(wrongPath.stderr).toContain(hint);
    const nobody = await sitesync(["plan", "--websites-url", "http://127.0.0.1:1"], { env, cwd: dir });
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain(hint);
  });

  it("reports an unclosed quote at the line that opens it", async () => {
    const dir = workdir({
      "sitesync.yaml": `${HEADER}websites:\n  - domain: "a.example.com\n    privacy: public\n  - domain: b.example.com\n`,
    });
    const result = await sitesync(["validate"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`sitesync.yaml:4:13 invalid YAML: the quote " opened here is never closed`);
  });

  it("says plainly that a sandbox port is busy or a --persist folder is missing, not that sitesync has a bug", async () => {
    const port = new URL(sandbox.url).port;
    for (const [args, message] of [
      [["sandbox", "--port", port], `error: port ${port} is already in use: pick another with --port, or --port 0 for a free one\n`],
      [
        ["sandbox", "--persist", "/nonexistent-folder/account.json"],
        "error: cannot write /nonexistent-folder/account.json (ENOENT): check the folder exists and is writable\n",
      ],
    ] as const) {
      let stderr = "";
      const io = createIo(
        {},
        {
          out: () => {},
          err: (text) => {
            stderr += text;
          },
        },
      );
      expect(await runCli([...args], { env: {}, io })).toBe(1);
      expect(stderr).toBe(message);
    }
  });
});

it("writes export --out whole, with no temporary file left", async () => {
  const dir = workdir();
  writeFileSync(join(dir, "keep.txt"), "");
  const result = await sitesync(["export", "--out", "sitesync.yaml"], { env, cwd: dir });
  expect(result.code, result.stderr).toBe(0);
  expect(readFileSync(join(dir, "sitesync.yaml"), "utf8")).toContain("domain: drift.example.com");
  expect(readdirSync(dir).sort()).toEqual(["keep.txt", "sitesync.yaml"]);
});
