/**
 * Which key each account of a fleet sends, and to which server (DESIGN §2 "Many files, many accounts", §7):
 * every account its own websites and projects keys (`api_key_env`, `projects_api_key_env`) to its own address,
 * never the default variables' nor another account's; a key an adapter gives (the Action's `api-key`, the run
 * request's `secrets`) only to a lone account; an account's own `websites_url` over the root's. Asserted on
 * what each server was sent, through the CLI, the Action's bundle and the orchestrator.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../src/run/run.ts";
import { createRunRedactor } from "../../src/run/run-redactor.ts";
import { runAction } from "../action/run-action.ts";
import { sitesync } from "../helpers/cli.ts";
import { domainsOf } from "../helpers/domains.ts";
import { writeFiles } from "../helpers/files.ts";
import { type KeyedSandbox, startKeyedSandbox } from "../helpers/key-recorder.ts";

const key = (name: string) => name.padEnd(64, "0");
const KEYS = {
  SITESYNC_EU_API_KEY: key("EuWebsitesKey"),
  SITESYNC_EU_PROJECTS_API_KEY: key("EuProjectsKey"),
  SITESYNC_US_API_KEY: key("UsWebsitesKey"),
  SITESYNC_US_PROJECTS_API_KEY: key("UsProjectsKey"),
};
/** The default variables, set as a shell or a job may have them: no account of this fleet names them. */
const DEFAULTS = { SITESYNC_API_KEY: key("DefaultWebsitesKey"), SITESYNC_PROJECTS_API_KEY: key("DefaultProjectsKey") };

let eu: KeyedSandbox;
let us: KeyedSandbox;
let dir: string;

beforeEach(async () => {
  eu = await startKeyedSandbox({
    apiKey: KEYS.SITESYNC_EU_API_KEY,
    projectsApiKey: KEYS.SITESYNC_EU_PROJECTS_API_KEY,
    rateLimit: 0,
    projects: [{ project: "old-eu.example.org" }],
  });
  us = await startKeyedSandbox({
    apiKey: KEYS.SITESYNC_US_API_KEY,
    projectsApiKey: KEYS.SITESYNC_US_PROJECTS_API_KEY,
    rateLimit: 0,
    projects: [{ project: "old-us.example.org" }],
  });
  dir = mkdtempSync(join(tmpdir(), "sitesync-fleet-keys-"));
  writeFiles(dir, {
    // us names no address of its own: it takes the root's. eu's own addresses win over the root's.
    "sitesync.yaml": [
      "version: 1",
      `websites_url: ${us.url}`,
      `projects_url: ${us.url}`,
      "accounts:",
      "  eu:",
      `    websites_url: ${eu.url}`,
      `    projects_url: ${eu.url}`,
      "    api_key_env: SITESYNC_EU_API_KEY",
      "    projects_api_key_env: SITESYNC_EU_PROJECTS_API_KEY",
      "  us:",
      "    api_key_env: SITESYNC_US_API_KEY",
      "    projects_api_key_env: SITESYNC_US_PROJECTS_API_KEY",
      'include: ["clients/*.yaml"]',
      "",
    ].join("\n"),
    "clients/acme.yaml": "account: eu\nwebsites:\n  - domain: acme.com\nprojects:\n  - project: old-eu.example.org\n    state: absent\n",
    "clients/cora.yaml": "account: us\nwebsites:\n  - domain: cora.com\nprojects:\n  - project: old-us.example.org\n    state: absent\n",
  });
});

afterEach(async () => {
  await eu.close();
  await us.close();
});

const projectsOf = (server: KeyedSandbox) => server.sandbox.store.projects().map((p) => p.project);

/** Each server was sent its own account's keys and no other, and did the account's work. */
function expectOwnKeys(): void {
  expect(eu.keys("websites")).toEqual([KEYS.SITESYNC_EU_API_KEY]);
  expect(eu.keys("projects")).toEqual([KEYS.SITESYNC_EU_PROJECTS_API_KEY]);
  expect(us.keys("websites")).toEqual([KEYS.SITESYNC_US_API_KEY]);
  expect(us.keys("projects")).toEqual([KEYS.SITESYNC_US_PROJECTS_API_KEY]);
}

describe("the CLI on a fleet of two accounts on two servers", () => {
  it("sends each account's own websites and projects keys to its own server, never the default variables' or the other's", async () => {
    const apply = await sitesync(["apply", "--auto-approve"], { cwd: dir, env: { ...KEYS, ...DEFAULTS } });
    expectOwnKeys();
    expect(apply.code, apply.stderr).toBe(0);
    expect(domainsOf(eu.sandbox)).toEqual(["acme.com"]);
    expect(domainsOf(us.sandbox)).toEqual(["cora.com"]);
    expect(projectsOf(eu)).toEqual([]);
    expect(projectsOf(us)).toEqual([]);
  });

  it("reads an account's projects with its projects_api_key_env even when SITESYNC_PROJECTS_API_KEY is unset", async () => {
    const plan = await sitesync(["plan", "--account", "us"], { cwd: dir, env: KEYS });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain("delete  project old-us.example.org");
    expect(us.keys("projects")).toEqual([KEYS.SITESYNC_US_PROJECTS_API_KEY]);
    expect(eu.seen).toEqual([]);
  });

  it("takes an account's own websites_url over the root's: --account eu talks to eu's server alone", async () => {
    const plan = await sitesync(["plan", "--account", "eu"], { cwd: dir, env: KEYS });
    expect(plan.code, plan.stderr).toBe(0);
    // Every plan names the account address it read (DESIGN §2).
    expect(plan.stdout).toContain(eu.url);
    expect(plan.stdout).not.toContain(us.url);
    expect(eu.keys()).toEqual([KEYS.SITESYNC_EU_API_KEY, KEYS.SITESYNC_EU_PROJECTS_API_KEY].sort());
    expect(us.seen).toEqual([]);
  });
});

describe("a key given by an adapter is for a lone account only", () => {
  it("the Action's api-key and projects-api-key are not sent by a fleet's accounts: each sends its own", async () => {
    const action = await runAction({
      workspace: dir,
      inputs: {
        command: "plan",
        "api-key": KEYS.SITESYNC_EU_API_KEY,
        "projects-api-key": KEYS.SITESYNC_EU_PROJECTS_API_KEY,
        comment: "false",
      },
      event: { name: "workflow_dispatch" },
      env: KEYS,
    });
    expectOwnKeys();
    expect(action.code, action.stdout).toBe(0);
  });

  it("the Action's api-key is the key of the one account its leg runs (the account input)", async () => {
    const leg = await runAction({
      workspace: dir,
      inputs: {
        command: "plan",
        account: "us",
        "api-key": KEYS.SITESYNC_US_API_KEY,
        "projects-api-key": KEYS.SITESYNC_US_PROJECTS_API_KEY,
        comment: "false",
      },
      event: { name: "workflow_dispatch" },
    });
    expect(us.keys("websites")).toEqual([KEYS.SITESYNC_US_API_KEY]);
    expect(us.keys("projects")).toEqual([KEYS.SITESYNC_US_PROJECTS_API_KEY]);
    expect(eu.seen).toEqual([]);
    expect(leg.code, leg.stdout).toBe(0);
  });

  it("a leg without key inputs sends its account's own keys, never SITESYNC_API_KEY from the step's environment", async () => {
    const leg = await runAction({
      workspace: dir,
      inputs: { command: "plan", account: "us", comment: "false" },
      event: { name: "workflow_dispatch" },
      env: { ...KEYS, ...DEFAULTS },
    });
    expect(us.keys("websites")).toEqual([KEYS.SITESYNC_US_API_KEY]);
    expect(us.keys("projects")).toEqual([KEYS.SITESYNC_US_PROJECTS_API_KEY]);
    expect(leg.code, leg.stdout).toBe(0);
  });

  it("a run request's secrets go to the one account selected, and not to every account of a fleet", async () => {
    const secrets = { apiKey: KEYS.SITESYNC_US_API_KEY, projectsApiKey: KEYS.SITESYNC_US_PROJECTS_API_KEY };
    const request = { command: "plan" as const, config: join(dir, "sitesync.yaml"), secrets };
    const lone = await run({ ...request, env: {}, settings: { accounts: ["us"] }, redactor: createRunRedactor() });
    expect(us.keys("websites")).toEqual([KEYS.SITESYNC_US_API_KEY]);
    expect(eu.seen).toEqual([]);
    expect(lone.exitCode).toBe(0);
    const fleet = await run({ ...request, env: KEYS, redactor: createRunRedactor() });
    expectOwnKeys();
    expect(fleet.exitCode).toBe(0);
  });
});
