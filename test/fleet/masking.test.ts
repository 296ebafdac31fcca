/**
 * The projects key is withheld from every output and file as the websites key is (DESIGN §3, §12: "server-echoed
 * values never carry a key"), whether it comes from SITESYNC_PROJECTS_API_KEY or from an account's
 * `projects_api_key_env`: a projects server that echoes it (here, as the name of a project) never gets it
 * printed, in any format, with --verbose, in a saved plan, a results file or an exported config.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { type CliResult, sitesync, sitesyncMany, workdir } from "../helpers/cli.ts";
import { writeFiles } from "../helpers/files.ts";

const PROJECTS_KEY = "PrOjEcTsK3y".padEnd(60, "q");
const WEBSITES_KEY = "WeBsItEsK3y".padEnd(64, "w");

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({
    apiKey: WEBSITES_KEY,
    projectsApiKey: PROJECTS_KEY,
    rateLimit: 0,
    projects: [{ project: PROJECTS_KEY }, { project: `${PROJECTS_KEY}.example.org` }, { project: "keep.example.org" }],
  });
});
afterEach(() => sandbox.close());

const PROJECTS = "websites: []\nprojects:\n  - project: keep.example.org\n";

function expectNoKey(runs: CliResult[], files: string[], dir: string): void {
  for (const [i, run] of runs.entries()) expect(run.stdout + run.stderr, `output of run ${i}`).not.toContain(PROJECTS_KEY);
  for (const file of files) expect(readFileSync(join(dir, file), "utf8"), file).not.toContain(PROJECTS_KEY);
}

describe("the projects key", () => {
  it("from SITESYNC_PROJECTS_API_KEY is in no output, saved plan, results file or export", async () => {
    const dir = workdir({
      "sitesync.yaml": `version: 1\nwebsites_url: ${sandbox.url}\nprojects_url: ${sandbox.url}\npolicy: { prune: true }\n${PROJECTS}`,
    });
    const env = { SITESYNC_API_KEY: WEBSITES_KEY, SITESYNC_PROJECTS_API_KEY: PROJECTS_KEY };
    const runs: CliResult[] = [];
    const exportEnv = { ...env, SITESYNC_WEBSITES_URL: sandbox.url, SITESYNC_PROJECTS_URL: sandbox.url };
    runs.push(await sitesync(["export", "--projects", "--verbose", "--out", "exported.yaml"], { cwd: dir, env: exportEnv }));
    const plans = ["text", "json", "markdown"].map((format) => ["plan", "--verbose", "--format", format]);
    const apply = ["apply", "--auto-approve", "--verbose", "--results", "results.json"];
    runs.push(...(await sitesyncMany([...plans, ["plan", "--out", "plan.json"], apply], { cwd: dir, env })));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0, 0, 0]);
    // The echo was there to leak: the plan deleted both projects named after the key, and kept the listed one.
    expect(runs[1]!.stdout).toContain("delete  project (sensitive) ");
    expect(sandbox.store.projects().map((p) => p.project)).toEqual(["keep.example.org"]);
    expectNoKey(runs, ["exported.yaml", "plan.json", "results.json"], dir);
  });

  it("from an account's projects_api_key_env is in no output or results file of a fleet", async () => {
    const dir = workdir();
    writeFiles(dir, {
      "sitesync.yaml": [
        "version: 1",
        "accounts:",
        "  eu:",
        `    websites_url: ${sandbox.url}`,
        `    projects_url: ${sandbox.url}`,
        "    projects_api_key_env: EU_PROJECTS_KEY",
        "    policy: { prune: true }",
        "  us: { websites_url: http://127.0.0.1:9, api_key_env: US_KEY }",
        'include: ["clients/*.yaml"]',
        "",
      ].join("\n"),
      "clients/acme.yaml": `account: eu\n${PROJECTS}`,
    });
    const env = { SITESYNC_API_KEY: WEBSITES_KEY, EU_PROJECTS_KEY: PROJECTS_KEY };
    const plans = ["text", "json", "markdown"].map((format) => ["plan", "--account", "eu", "--verbose", "--format", format]);
    const apply = ["apply", "--account", "eu", "--auto-approve", "--verbose", "--results", "results.json"];
    const runs = await sitesyncMany([...plans, apply], { cwd: dir, env });
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(runs[0]!.stdout).toContain("delete  project (sensitive) ");
    expect(sandbox.store.projects().map((p) => p.project)).toEqual(["keep.example.org"]);
    expectNoKey(runs, ["results.json"], dir);
  });
});
