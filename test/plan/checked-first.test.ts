/**
 * Every address and key a command will need is checked before its first request (DESIGN §2 "the account is
 * never a surprise", §5): the projects address of `export --projects` and of a config that manages projects,
 * and a projects key an account names of its own, in the CLI, the Action and the library, one account or
 * many. Each case asserts what the user reads and that no request reached any server.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../src/run/run.ts";
import { createRunRedactor } from "../../src/run/run-redactor.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { runAction } from "../action/run-action.ts";
import { HEADER, sitesync, workdir } from "../helpers/cli.ts";
import { writeFiles } from "../helpers/files.ts";

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ rateLimit: 0, seed: 120, projects: [{ project: "seo.example.org" }] });
});
afterEach(() => sandbox.close());

const PROJECTS_CONFIG = `${HEADER}websites:\n  - domain: site-00001.example.com\nprojects:\n  - project: seo.example.org\n`;

describe("the projects address", () => {
  it("export --projects without one fails before reading a single website page", async () => {
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const result = await sitesync(["export", "--projects", "--out", "-"], { env, cwd: workdir() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "error: this command needs the projects API address (it reads projects): pass --projects-url <url>, set SITESYNC_PROJECTS_URL, or set projects_url in the config\n",
    );
    expect(sandbox.requests).toHaveLength(0);
  });

  it("plan and apply of a config with projects: and no projects address fail before any request", async () => {
    const dir = workdir({ "sitesync.yaml": PROJECTS_CONFIG });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    for (const args of [
      ["plan", "--detailed-exitcode"],
      ["apply", "--auto-approve"],
      ["adopt", "sitesync.yaml", "--dry-run"],
    ]) {
      const result = await sitesync(args, { env, cwd: dir });
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr).toContain("this command needs the projects API address (it reads projects): pass --projects-url <url>");
    }
    expect(sandbox.requests).toHaveLength(0);
    const given = await sitesync(["plan"], { env: { ...env, SITESYNC_PROJECTS_URL: sandbox.url }, cwd: dir });
    expect(given.code, given.stderr).toBe(0);
  });

  it("the Action names its projects-url input, before any request", async () => {
    const workspace = workdir({ "sitesync.yaml": PROJECTS_CONFIG });
    const action = await runAction({
      workspace,
      inputs: { command: "plan", "api-key": sandbox.apiKey, "websites-url": sandbox.url, comment: "false" },
      event: { name: "workflow_dispatch" },
    });
    expect(action.code).toBe(1);
    expect(action.stdout).toContain("this command needs the projects API address (it reads projects): set the projects-url input");
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe("a fleet", () => {
  const KEYS = { SITESYNC_EU_API_KEY: "EuFirstKey".padEnd(64, "0"), SITESYNC_US_API_KEY: "UsFirstKey".padEnd(64, "0") };
  let us: Sandbox;
  let dir: string;
  beforeEach(async () => {
    us = await startSandbox({ apiKey: KEYS.SITESYNC_US_API_KEY, rateLimit: 0 });
    dir = mkdtempSync(join(tmpdir(), "sitesync-first-"));
    writeFiles(dir, {
      "sitesync.yaml": [
        "version: 1",
        "accounts:",
        `  eu: { websites_url: ${sandbox.url}, api_key_env: SITESYNC_EU_API_KEY, projects_api_key_env: SITESYNC_EU_PROJECTS_API_KEY }`,
        `  us: { websites_url: ${us.url}, api_key_env: SITESYNC_US_API_KEY }`,
        'include: ["clients/*.yaml"]',
        "",
      ].join("\n"),
      "clients/acme.yaml": `account: eu\nwebsites:\n  - domain: acme.com\nprojects:\n  - project: seo.example.org\n`,
      "clients/cora.yaml": "account: us\nwebsites:\n  - domain: cora.com\n",
    });
  });
  afterEach(() => us.close());

  it("an account without its projects address stops every account before any request, naming it", async () => {
    const result = await sitesync(["apply", "--auto-approve"], {
      cwd: dir,
      env: { ...KEYS, SITESYNC_EU_PROJECTS_API_KEY: "p".repeat(64) },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "error: account eu has no projects API address: set accounts.eu.projects_url in the config, or pass --account eu --projects-url <url>",
    );
    expect(sandbox.requests.length + us.requests.length).toBe(0);
  });

  it("a projects key an account names of its own and leaves unset stops every account before any request", async () => {
    const env = { ...KEYS, SITESYNC_PROJECTS_URL: sandbox.url };
    const result = await sitesync(["plan"], { cwd: dir, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error: SITESYNC_EU_PROJECTS_API_KEY is not set: export the projects API key of account eu");
    expect(sandbox.requests.length + us.requests.length).toBe(0);
    // The library: the same error as data, for the run as a whole.
    const outcome = await run({ command: "plan", config: join(dir, "sitesync.yaml"), env, redactor: createRunRedactor() });
    const keys = [{ account: "eu", env: "SITESYNC_EU_PROJECTS_API_KEY", api: "projects" }];
    expect(outcome.error).toMatchObject({ problem: { code: "key-unset", keys } });
    expect(outcome.accounts).toEqual([]);
    expect(sandbox.requests.length + us.requests.length).toBe(0);
  });
});
